--- @include "refuse"
-- A rolling 24-hour budget kept as a sorted set of timestamps (ms): key creations, webhook
-- declarations. Answers the refusal when the budget is spent (retry when the oldest entry leaves the
-- window), else nil; `spendRollingLimit` records one use.
local DAY_MS = 86400000

local function spaceRateLimited(key, now, budget)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - DAY_MS)
  if redis.call('ZCARD', key) < budget then return nil end
  local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  local wait = 86400
  if oldest[2] then wait = math.ceil((tonumber(oldest[2]) + DAY_MS - now) / 1000) end
  return refuse('space_rate_limited', { retry_after_seconds = math.max(wait, 1) })
end
