--[[
  Stores a connection's new access token and refresh token (both hashed, both expiring), if the
  connection is still active: a revoked connection gets no token, whatever it presents.
  KEYS[1] keys     hash key id -> key JSON (the active accesses)
  KEYS[2] access   string: the access token, `<key id> <audience> <expiry ms> <scope>`, named by its sha256
  KEYS[3] refresh  hash: the refresh token, named by its sha256
  ARGV[1] connection key id
  ARGV[2] audience (the resource the token is for)
  ARGV[3] access token life (ms)
  ARGV[4] refresh token fields JSON object (string values)
  ARGV[5] refresh token life (ms)
  ARGV[6] now (ms)
  ARGV[7] the access token's scope: its permissions, comma-separated (a refresh may narrow the
          connection's; the token can do that much only)
  Returns {"ok":true} | {"error":"unauthorized"} (the connection was revoked).
  Events: none.
]]
--- @include "refuse"
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return refuse('unauthorized') end
-- Its end is written beside it, read by the injected clock; Redis's own expiry only clears it away.
redis.call('SET', KEYS[2], ARGV[1] .. ' ' .. ARGV[2] .. ' ' .. string.format('%d', tonumber(ARGV[6]) + tonumber(ARGV[3])) .. ' ' .. ARGV[7], 'PX', ARGV[3])
for field, value in pairs(cjson.decode(ARGV[4])) do redis.call('HSET', KEYS[3], field, value) end
redis.call('HSET', KEYS[3], 'used', '0')
redis.call('PEXPIRE', KEYS[3], ARGV[5])
return cjson.encode({ ok = true })
