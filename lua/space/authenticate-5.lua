--[[
  Finds the access behind a secret (an API key, or a connection's OAuth access token) and the
  space's fields, in one round trip; notes its use and takes the request's cost from the secret's
  request budget (a token bucket shared by every front end; a connection's tokens share the
  connection's): one, or a JSON-RPC batch's calls at /mcp.
  KEYS[1] auth        for a key: hash sha256(secret) -> key id; for an access token: the string
                      `<key id> <audience> <expiry ms> <scope>` named by sha256(token), the scope its
                      permissions comma-separated
  KEYS[2] keys        hash key id -> key JSON
  KEYS[3] keyUse      hash key id -> last use (ms)
  KEYS[4] space       hash of the space's fields
  KEYS[5] rateBucket  string "<tokens> <at ms>": this key's budget (for an access token, its connection's)
  ARGV[1] secretHash: string       sha256 of the presented secret (hex)
  ARGV[2] now: number              now (ms)
  ARGV[3] freshFor: number         how long a last-use mark stays fresh (ms): fewer writes under load
  ARGV[4] capacity: number         bucket capacity (requests in a burst)
  ARGV[5] refill: number           refill (requests per second)
  ARGV[6] kind: 'key' | 'token'    what KEYS[1] is
  ARGV[7] connectionKeyId: string  the connection key id the token names, whose budget KEYS[5] is; '' for a key
  ARGV[8] cost: number             the request's cost: the calls it makes (at most ARGV[4]), all or none of them taken
  Returns { key: StoredKey, space: HashFields, last_used_at: number, tokens: number, audience: string, scope: string | null }
    // last_used_at: ms, or 0; tokens: left after this request; audience: a token's, or '';
    // scope: a token's permissions, comma-separated, or null: all the key's
  Refuses unauthorized | rate_limited { retry_after_seconds }
  Events: none.
]]
--- @include "refuse"
--- @include "hashToTable"
--- @include "refillBucket"
local keyId, audience, scope = nil, '', nil
if ARGV[6] == 'token' then
  local token = redis.call('GET', KEYS[1])
  local expiresAt
  if token then
    keyId, audience, expiresAt, scope = string.match(token, '^(%S+) (%S+) (%d+) (%S*)$')
  end
  if keyId and tonumber(ARGV[2]) >= tonumber(expiresAt) then keyId = nil end
  -- The budget was named after the key id the token shows; the stored one is the truth.
  if keyId and keyId ~= ARGV[7] then keyId = nil end
else
  keyId = redis.call('HGET', KEYS[1], ARGV[1])
end
if not keyId then return refuse('unauthorized') end
local keyJson = redis.call('HGET', KEYS[2], keyId)
local space = hashToTable(KEYS[4])
if not keyJson or not space.id then return refuse('unauthorized') end
local now = tonumber(ARGV[2])
local capacity = tonumber(ARGV[4])
local perMs = tonumber(ARGV[5]) / 1000
local left, at = string.match(redis.call('GET', KEYS[5]) or '', '^(%S+) (%S+)$')
local tokens = refillBucket(left, at, now, capacity, perMs)
local cost = tonumber(ARGV[8])
if tokens < cost then
  return refuse('rate_limited', { retry_after_seconds = math.ceil((cost - tokens) / perMs / 1000) })
end
tokens = tokens - cost
-- Numbers go to redis.call as strings: Redis formats a Lua number with snprintf("%.17g") at every call.
-- A bucket left alone refills to capacity; by then it says nothing an absent one would not.
redis.call('SET', KEYS[5], string.format('%.6f', tokens) .. ' ' .. ARGV[2], 'PX', string.format('%d', math.ceil((capacity - tokens) / perMs) + 1000))
local lastUsed = tonumber(redis.call('HGET', KEYS[3], keyId) or '0')
if now - lastUsed >= tonumber(ARGV[3]) then
  redis.call('HSET', KEYS[3], keyId, ARGV[2])
  lastUsed = now
end
return '{"key":' .. keyJson .. ',"space":' .. cjson.encode(space) .. ',"last_used_at":' .. lastUsed
  .. ',"tokens":' .. string.format('%.6f', tokens) .. ',"audience":' .. cjson.encode(audience)
  .. ',"scope":' .. (scope and cjson.encode(scope) or 'null') .. '}'
