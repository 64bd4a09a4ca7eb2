--[[
  Creates a space and its first access (the operator's CLI), atomically.
  KEYS[1] space         hash of the space's fields
  KEYS[2] keys          hash key id -> key JSON
  KEYS[3] keyNames      hash normalised name -> key id
  KEYS[4] auth          hash sha256(secret) -> key id
  KEYS[5] journal       hash line id -> line JSON
  KEYS[6] journalIndex  hash: the index lists of line id bodies (journalIndexAdd)
  ARGV[1] fields: json       space fields as JSON object (string values)
  ARGV[2] keyId: string      first key id
  ARGV[3] key: json          first key JSON
  ARGV[4] nameNorm: string   first key normalised name
  ARGV[5] tokenHash: string  first key token hash
  ARGV[6] lineId: string     journal line id
  ARGV[7] lineJson: json     journal line JSON
  ARGV[8] lineRefs: json     journal refs JSON array
  Returns { ok: true }
  Refuses internal (the space already exists)
  Events: none; journal line space.created.
]]
--- @include "refuse"
--- @include "appendJournal"
--- @include "replayedLine"
if replayedLine(KEYS[5], ARGV[6]) then return cjson.encode({ ok = true }) end
if redis.call('EXISTS', KEYS[1]) == 1 then return refuse('internal') end
local fields = cjson.decode(ARGV[1])
for field, value in pairs(fields) do redis.call('HSET', KEYS[1], field, value) end
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
redis.call('HSET', KEYS[3], ARGV[4], ARGV[2])
redis.call('HSET', KEYS[4], ARGV[5], ARGV[2])
appendJournal(KEYS[5], KEYS[6], ARGV[6], ARGV[7], ARGV[8])
return cjson.encode({ ok = true })
