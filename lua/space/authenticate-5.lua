--[[
  Finds the access behind a secret (an API key, or a connection's OAuth access token) and the
  space's fields, in one round trip; notes its use and takes one token from the secret's request
  budget (a token bucket shared by every front end; a connection's tokens share the connection's).
  KEYS[1] auth        for a key: hash sha256(secret) -> key id; for an access token: the string
                      `<key id> <audience> <expiry ms> <scope>` named by sha256(token), the scope its
                      permissions comma-separated (absent from tokens issued before: the connection's)
  KEYS[2] keys        hash key id -> key JSON
  KEYS[3] keyUse      hash key id -> last use (ms)
  KEYS[4] space       hash of the space's fields
  KEYS[5] rateBucket  hash tokens, at (ms): this key's budget (for an access token, its connection's,
                      or for one issued before tokens named their connection, its own)
  ARGV[1] sha256 of the presented secret (hex)
  ARGV[2] now (ms)
  ARGV[3] how long a last-use mark stays fresh (ms): fewer writes under load
  ARGV[4] bucket capacity (requests in a burst)
  ARGV[5] refill (requests per second)
  ARGV[6] `key` or `token`: what KEYS[1] is
  ARGV[7] the connection key id the token names, whose budget KEYS[5] is; "" for a key or an older token
  Returns {"key":<key JSON>,"space":{...},"last_used_at":<ms or 0>,"tokens":<left after this request>,"audience":<a token's, or "">,
           "scope":<a token's, comma-separated, or null: all the key's permissions>}
    | {"error":"unauthorized"}
    | {"error":"rate_limited","hint":{"retry_after_seconds":n}}.
  Events: none.
]]
--- @include "refuse"
--- @include "hashToTable"
local keyId, audience, scope = nil, '', nil
if ARGV[6] == 'token' then
  local token = redis.call('GET', KEYS[1])
  local expiresAt
  if token then
    keyId, audience, expiresAt, scope = string.match(token, '^(%S+) (%S+) (%d+) (%S*)$')
    if not keyId then keyId, audience, expiresAt = string.match(token, '^(%S+) (%S+) (%d+)$') end
  end
  if keyId and tonumber(ARGV[2]) >= tonumber(expiresAt) then keyId = nil end
  -- The budget was named after the key id the token shows; the stored one is the truth.
  if keyId and ARGV[7] ~= '' and keyId ~= ARGV[7] then keyId = nil end
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
local bucket = redis.call('HMGET', KEYS[5], 'tokens', 'at')
local tokens = capacity
if bucket[1] then
  tokens = math.min(capacity, tonumber(bucket[1]) + math.max(0, now - tonumber(bucket[2])) * perMs)
end
if tokens < 1 then
  return refuse('rate_limited', { retry_after_seconds = math.ceil((1 - tokens) / perMs / 1000) })
end
tokens = tokens - 1
-- Numbers go to redis.call as strings: Redis formats a Lua number with snprintf("%.17g") at every call.
redis.call('HSET', KEYS[5], 'tokens', string.format('%.6f', tokens), 'at', ARGV[2])
-- A bucket left alone refills to capacity; by then it says nothing an absent one would not.
redis.call('PEXPIRE', KEYS[5], string.format('%d', math.ceil((capacity - tokens) / perMs) + 1000))
local lastUsed = tonumber(redis.call('HGET', KEYS[3], keyId) or '0')
if now - lastUsed >= tonumber(ARGV[3]) then
  redis.call('HSET', KEYS[3], keyId, ARGV[2])
  lastUsed = now
end
return '{"key":' .. keyJson .. ',"space":' .. cjson.encode(space) .. ',"last_used_at":' .. lastUsed
  .. ',"tokens":' .. string.format('%.6f', tokens) .. ',"audience":' .. cjson.encode(audience)
  .. ',"scope":' .. (scope and cjson.encode(scope) or 'null') .. '}'
