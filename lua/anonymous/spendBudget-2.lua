--[[
  Spends one request of an endpoint reached without a key (OAuth registration, authorization, token;
  the human's sign-in) from two token buckets: the client address's, then the whole service's. A
  refused request spends nothing, and the address's bucket is checked first: one busy address never
  spends the service's budget. Only admitted requests write a bucket, so the hash holds at most the
  addresses admitted within a refill period; each call drops a few buckets that are full again (they
  say nothing an absent one would not): no sweep scans anything.
  KEYS[1] buckets  hash: `*` (the service's bucket) and each client address -> "<tokens> <at ms>"
  KEYS[2] refills  sorted set: client address -> when its bucket is full again (ms)
  ARGV[1] now: number             now (ms)
  ARGV[2] address: string         the client address (an IPv4 address, or an IPv6 /64)
  ARGV[3] addressCapacity: number an address's capacity (requests at once)
  ARGV[4] addressPeriod: number   the period over which an address's bucket refills whole (ms)
  ARGV[5] serviceCapacity: number the service's capacity
  ARGV[6] servicePeriod: number   the period over which the service's bucket refills whole (ms)
  Returns { ok: true }
  Refuses anonymous_rate_limited { retry_after_seconds, scope }
  Events: none.
]]
--- @include "refuse"
--- @include "refillBucket"
local now = tonumber(ARGV[1])
local full = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'LIMIT', 0, 10)
if #full > 0 then
  redis.call('HDEL', KEYS[1], unpack(full))
  redis.call('ZREM', KEYS[2], unpack(full))
end

local function take(field, capacity, periodMs, scope)
  local perMs = capacity / periodMs
  local stored = redis.call('HGET', KEYS[1], field)
  local tokens, at
  if stored then tokens, at = string.match(stored, '^(%S+) (%S+)$') end
  local left = refillBucket(tokens, at, now, capacity, perMs)
  if left < 1 then
    return nil, refuse('anonymous_rate_limited', { retry_after_seconds = math.ceil((1 - left) / perMs / 1000), scope = scope })
  end
  return left - 1
end

local addressCapacity, addressPeriod = tonumber(ARGV[3]), tonumber(ARGV[4])
local serviceCapacity, servicePeriod = tonumber(ARGV[5]), tonumber(ARGV[6])
local address, refusal = take(ARGV[2], addressCapacity, addressPeriod, 'address')
if refusal then return refusal end
local service
service, refusal = take('*', serviceCapacity, servicePeriod, 'service')
if refusal then return refusal end
-- Numbers go to redis.call as strings: Redis formats a Lua number with snprintf("%.17g") at every call.
redis.call('HSET', KEYS[1], ARGV[2], string.format('%.6f %d', address, now), '*', string.format('%.6f %d', service, now))
redis.call('ZADD', KEYS[2], string.format('%d', now + math.ceil((addressCapacity - address) * addressPeriod / addressCapacity)), ARGV[2])
-- Left alone, every bucket is full again within the longer period: the keys go then.
local quiet = string.format('%d', math.max(addressPeriod, servicePeriod) + 1000)
redis.call('PEXPIRE', KEYS[1], quiet)
redis.call('PEXPIRE', KEYS[2], quiet)
return cjson.encode({ ok = true })
