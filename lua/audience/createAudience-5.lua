--[[
  Creates an audience (create_audience): a named, empty list of the space's contacts.
  KEYS[1] space         hash of the space's fields (a space erased meanwhile gets nothing written)
  KEYS[2] audiences     sorted set (score 0, lex) of the space's audience ids
  KEYS[3] audience      hash of the new audience's fields
  KEYS[4] journal       hash line id -> line JSON
  KEYS[5] journalIndex  hash: the index lists of line id bodies (journalIndexAdd)
  ARGV[1] audienceId: string  audience id
  ARGV[2] name: string        its name
  ARGV[3] nowIso: string      now, ISO 8601
  ARGV[4] keyId: string       the creating key's id
  ARGV[5] lineId: string      journal line id
  ARGV[6] lineJson: json      journal line JSON (audience.created)
  ARGV[7] lineRefs: json      journal refs JSON array
  Returns { ok: true }
  Refuses not_found (no such space)
  Events: none; journal line audience.created.
]]
--- @include "refuse"
--- @include "appendJournal"
--- @include "replayedLine"
if replayedLine(KEYS[4], ARGV[5]) then return cjson.encode({ ok = true }) end
if redis.call('EXISTS', KEYS[1]) == 0 then return refuse('not_found') end
redis.call('HSET', KEYS[3], 'id', ARGV[1], 'name', ARGV[2], 'created_at', ARGV[3], 'created_by', ARGV[4], 'seq', '0', 'live', '0')
redis.call('ZADD', KEYS[2], '0', ARGV[1])
appendJournal(KEYS[4], KEYS[5], ARGV[5], ARGV[6], ARGV[7])
return cjson.encode({ ok = true })
