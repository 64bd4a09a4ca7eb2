--[[
  Lifts a block of the space (remove_suppression): a manual one or a bounce. An unsubscription or a
  complaint stays: only the person can write again.
  KEYS[1] suppressions      hash value -> entry JSON
  KEYS[2] suppressionIndex  sorted set (score 0, lex) "<entry id> <value>"
  KEYS[3] journal           hash line id -> line JSON
  KEYS[4] journalIndex      sorted set "<ref> <line id>"
  ARGV[1] value, lowercase (an address, or `@domain`)
  ARGV[2] journal line id
  ARGV[3] journal line JSON (suppression.removed)
  ARGV[4] journal refs JSON array
  Returns {"entry":<the entry removed>} | {"error":"not_found"} | {"error":"suppression_locked"}.
  Events: none; journal line suppression.removed.
]]
--- @include "refuse"
--- @include "appendJournal"
local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current then return refuse('not_found') end
local entry = cjson.decode(current)
if entry.reason == 'unsubscribe' or entry.reason == 'complaint' then return refuse('suppression_locked') end
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], entry.id .. ' ' .. ARGV[1])
appendJournal(KEYS[3], KEYS[4], ARGV[2], ARGV[3], ARGV[4])
return cjson.encode({ entry = entry })
