--[[
  Spends a refresh token at its rotation: the first presentation marks it used (it stays, until its
  own expiry, so that a second presentation is recognised as a reuse).
  KEYS[1] refresh  hash: the refresh token, named by its sha256 (key_id, used...)
  Returns {"spent":true} | {"spent":false,"reused":false} (unknown or expired)
    | {"spent":false,"reused":true} (used already).
  Events: none.
]]
local used = redis.call('HGET', KEYS[1], 'used')
if used == '0' then
  redis.call('HSET', KEYS[1], 'used', '1')
  return cjson.encode({ spent = true })
end
return cjson.encode({ spent = false, reused = used == '1' })
