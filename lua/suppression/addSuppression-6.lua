--[[
  Blocks an address (or `@domain`) for the space: unsubscription, complaint, bounce or manual addition.
  An entry already in force stays unless the new reason outranks it (bounce < manual < unsubscribe <
  complaint): an unsubscription turns a manual entry into one no tool can lift, never the reverse.
  KEYS[1] space             hash of the space's fields (a space erased meanwhile gets nothing written)
  KEYS[2] suppressions      hash value -> entry JSON
  KEYS[3] suppressionIndex  sorted set (score 0, lex) "<entry id> <value>"
  KEYS[4] events            stream of the space's events
  KEYS[5] journal           hash line id -> line JSON
  KEYS[6] journalIndex      hash: the index lists of line id bodies (journalIndexAdd)
  ARGV[1] value: string   value, lowercase (an address, or `@domain`)
  ARGV[2] entry: json     entry JSON {id, value, kind, reason, scope, source, created_at}
  ARGV[3] lineId: string  journal line id
  ARGV[4] lineJson: json  journal line JSON (contact.unsubscribed...)
  ARGV[5] lineRefs: json  journal refs JSON array
  ARGV[6] event: string   packed event (actors/events.ts prepareEvent) (mail.contact.unsubscribed...), '' for none
  Returns { created: boolean, entry: SuppressionEntry } // entry: the one in force
  Refuses not_found (no such space)
  Events: ARGV[6] when written (mail.contact.unsubscribed for an unsubscription); journal line ARGV[4]
    when written. Nothing when an entry of equal or higher rank was already in force.
]]
--- @include "refuse"
--- @include "appendJournal"
--- @include "appendEvent"
--- @include "replayedLine"
if replayedLine(KEYS[5], ARGV[3]) then return cjson.encode({ created = true, entry = cjson.decode(ARGV[2]) }) end
if redis.call('EXISTS', KEYS[1]) == 0 then return refuse('not_found') end
local RANK = { bounce = 1, manual = 2, unsubscribe = 3, complaint = 4 }
local entry = cjson.decode(ARGV[2])
local current = redis.call('HGET', KEYS[2], ARGV[1])
if current then
  local held = cjson.decode(current)
  if (RANK[held.reason] or 0) >= RANK[entry.reason] then
    return cjson.encode({ created = false, entry = held })
  end
  redis.call('ZREM', KEYS[3], held.id .. ' ' .. ARGV[1])
end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[3], 0, entry.id .. ' ' .. ARGV[1])
appendJournal(KEYS[5], KEYS[6], ARGV[3], ARGV[4], ARGV[5])
if ARGV[6] ~= '' then appendEvent(KEYS[4], ARGV[6]) end
return cjson.encode({ created = true, entry = entry })
