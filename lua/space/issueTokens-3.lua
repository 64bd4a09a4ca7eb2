--[[
  Stores a connection's first access token and refresh token (both hashed, both expiring), from its
  authorization code, if the connection is still active: a revoked connection gets no token.
  KEYS[1] keys     hash key id -> key JSON (the active accesses)
  KEYS[2] access   string: the access token, `<key id> <audience> <expiry ms> <scope>`, named by its sha256
  KEYS[3] refresh  hash: the refresh token, named by its sha256
  ARGV[1] keyId: string        connection key id
  ARGV[2] audience: string     the resource the token is for
  ARGV[3] accessLife: number   access token life (ms)
  ARGV[4] refresh: json        refresh token fields JSON object (string values)
  ARGV[5] refreshLife: number  refresh token life (ms)
  ARGV[6] now: number          now (ms)
  ARGV[7] scope: string        the access token's scope: its permissions, comma-separated (a refresh may narrow the
                               connection's; the token can do that much only)
  Returns { ok: true }
  Refuses unauthorized (the connection was revoked)
  Events: none.
]]
--- @include "refuse"
--- @include "storeTokens"
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return refuse('unauthorized') end
storeTokens(KEYS[2], KEYS[3], ARGV[1], ARGV[2], tonumber(ARGV[3]), cjson.decode(ARGV[4]), ARGV[5], tonumber(ARGV[6]), ARGV[7])
return cjson.encode({ ok = true })
