--[[
  Undoes issueCode when the code's e-mail could not leave: the code, its send mark and its journal
  line go, so the refusal (code_not_sent) changes nothing the caller could see (spacing, limit, journal).
  KEYS[1] code          hash of the purpose's pending code
  KEYS[2] codeSends     sorted set: salts of sent codes scored by send time (ms)
  KEYS[3] journal       hash line id -> line JSON
  KEYS[4] journalIndex  hash: the index lists of line id bodies (journalIndexAdd)
  ARGV[1] salt: string    the salt of the code to undo (another code issued meanwhile stays)
  ARGV[2] lineId: string  its journal line id
  ARGV[3] lineRefs: json  its journal refs JSON array (as given to issueCode)
  Returns { ok: true }
  Events: none; journal line ARGV[2] removed.
]]
--- @include "journalIndexDrop"
if redis.call('HGET', KEYS[1], 'salt') == ARGV[1] then redis.call('DEL', KEYS[1]) end
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[2])
local body = string.sub(ARGV[2], 5)
journalIndexDrop(KEYS[4], '* ', body)
for _, prefix in ipairs(cjson.decode(ARGV[3])) do journalIndexDrop(KEYS[4], prefix, body) end
return cjson.encode({ ok = true })
