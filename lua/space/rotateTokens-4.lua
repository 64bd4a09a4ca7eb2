--[[
  A refresh (RFC 6749 6): spends the presented refresh token and stores the new pair, in one step, once
  every check of the request passed (a refused refresh, a wider scope among them, leaves the token as
  it was). The spent token stays, marked used, until its own expiry: presented again it is a reuse.
  KEYS[1] keys     hash key id -> key JSON (the active accesses)
  KEYS[2] access   string: the new access token, `<key id> <audience> <expiry ms> <scope>`, named by its sha256
  KEYS[3] refresh  hash: the new refresh token, named by its sha256
  KEYS[4] spent    hash: the presented refresh token, named by its sha256 (key_id, used...)
  ARGV[1] keyId: string        connection key id
  ARGV[2] audience: string     the resource the token is for
  ARGV[3] accessLife: number   access token life (ms)
  ARGV[4] refresh: json        new refresh token fields JSON object (string values)
  ARGV[5] refreshLife: number  refresh token life (ms)
  ARGV[6] now: number          now (ms)
  ARGV[7] scope: string        the new access token's scope: its permissions, comma-separated (a refresh may narrow
                               the connection's; the token can do that much only)
  Returns { ok: true }
    | { ok: false, reused: boolean } // reused: the presented token was spent already (the caller revokes the connection); else it is gone
  Refuses unauthorized (the connection was revoked)
  Events: none.
]]
--- @include "refuse"
--- @include "storeTokens"
-- Run again after a lost reply: the new refresh token (named afresh at each call) is there already.
if redis.call('EXISTS', KEYS[3]) == 1 then return cjson.encode({ ok = true }) end
local used = redis.call('HGET', KEYS[4], 'used')
if used ~= '0' then return cjson.encode({ ok = false, reused = used == '1' }) end
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return refuse('unauthorized') end
redis.call('HSET', KEYS[4], 'used', '1')
storeTokens(KEYS[2], KEYS[3], ARGV[1], ARGV[2], tonumber(ARGV[3]), cjson.decode(ARGV[4]), ARGV[5], tonumber(ARGV[6]), ARGV[7])
return cjson.encode({ ok = true })
