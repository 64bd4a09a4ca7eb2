-- The loop guard of a thread: at most `most` outbound messages within `window` ms since the
-- correspondent last wrote (receiveInbound clears the set). Drops the times that left the window, then
-- refuses with the wait until the oldest one leaves it, or answers nil.
--- @include "refuse"
local function loopGuardRefusal(threadOutboundKey, now, most, window)
  redis.call('ZREMRANGEBYSCORE', threadOutboundKey, '-inf', now - window)
  if redis.call('ZCARD', threadOutboundKey) < most then return nil end
  local oldest = redis.call('ZRANGE', threadOutboundKey, '0', '0', 'WITHSCORES')
  local wait = math.ceil((tonumber(oldest[2]) + window - now) / 1000)
  return refuse('thread_loop_guard', { retry_after_seconds = math.max(wait, 1) })
end
