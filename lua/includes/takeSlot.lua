-- Takes a place for `member` in a bounded sorted set of expiring members (score = end, ms): members
-- ended by `now` leave first; a member already in keeps its place with its new end. False when full.
local function takeSlot(key, now, member, ends, max)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  if not redis.call('ZSCORE', key, member) and redis.call('ZCARD', key) >= max then return false end
  redis.call('ZADD', key, ends, member)
  redis.call('PEXPIRE', key, math.max(1, ends - now))
  return true
end
