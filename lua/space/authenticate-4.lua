--[[
  Finds the access behind a secret and the space's fields, in one round trip; notes its use.
  KEYS[1] auth      hash sha256(secret) -> key id
  KEYS[2] keys      hash key id -> key JSON
  KEYS[3] keyUse    hash key id -> last use (ms)
  KEYS[4] space     hash of the space's fields
  ARGV[1] sha256 of the presented secret (hex)
  ARGV[2] now (ms)
  ARGV[3] how long a last-use mark stays fresh (ms): fewer writes under load
  Returns {"key":<key JSON>,"space":{...},"last_used_at":<ms or 0>} | {"error":"unauthorized"}.
  Events: none.
]]
--- @include "refuse"
local keyId = redis.call('HGET', KEYS[1], ARGV[1])
if not keyId then return refuse('unauthorized') end
local keyJson = redis.call('HGET', KEYS[2], keyId)
local flat = redis.call('HGETALL', KEYS[4])
if not keyJson or #flat == 0 then return refuse('unauthorized') end
local space = {}
for i = 1, #flat, 2 do space[flat[i]] = flat[i + 1] end
local now = tonumber(ARGV[2])
local lastUsed = tonumber(redis.call('HGET', KEYS[3], keyId) or '0')
if now - lastUsed >= tonumber(ARGV[3]) then
  redis.call('HSET', KEYS[3], keyId, now)
  lastUsed = now
end
return '{"key":' .. keyJson .. ',"space":' .. cjson.encode(space) .. ',"last_used_at":' .. lastUsed .. '}'
