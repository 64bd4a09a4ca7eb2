-- Records one use of a rolling 24-hour budget checked by spaceRateLimited (whose window, DAY_MS, it
-- includes): the set lives as long as its newest use can count.
--- @include "spaceRateLimited"
local function spendRollingLimit(key, now, member)
  redis.call('ZADD', key, now, member)
  redis.call('PEXPIRE', key, DAY_MS)
end
