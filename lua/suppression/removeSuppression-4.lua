--[[
  Lifts a block of the space (remove_suppression): a manual one or a bounce. An unsubscription or a
  complaint stays: only the person can write again.
  KEYS[1] suppressions      hash value -> entry JSON
  KEYS[2] suppressionIndex  sorted set (score 0, lex) "<entry id> <value>"
  KEYS[3] journal           hash line id -> line JSON
  KEYS[4] journalIndex      hash: the index lists of line id bodies (journalIndexAdd)
  ARGV[1] value: string   value, lowercase (an address, or `@domain`)
  ARGV[2] lineId: string  journal line id
  ARGV[3] lineJson: json  journal line JSON (suppression.removed)
  ARGV[4] lineRefs: json  journal refs JSON array
  Returns { entry: SuppressionEntry } // the entry removed
  Refuses not_found | suppression_locked
  Events: none; journal line suppression.removed.
]]
--- @include "refuse"
--- @include "appendJournal"
--- @include "replayedLine"
local replayed = replayedLine(KEYS[3], ARGV[2])
if replayed then return cjson.encode({ entry = replayed.data.entry }) end
local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current then return refuse('not_found') end
local entry = cjson.decode(current)
if entry.reason == 'unsubscribe' or entry.reason == 'complaint' then return refuse('suppression_locked') end
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], entry.id .. ' ' .. ARGV[1])
-- The entry goes in the line: a second run for this call answers it from there.
local line = cjson.decode(ARGV[3])
line.data.entry = entry
appendJournal(KEYS[3], KEYS[4], ARGV[2], cjson.encode(line), ARGV[4])
return cjson.encode({ entry = entry })
