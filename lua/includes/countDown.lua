-- Takes one from a counter field of a hash, never below zero: a counter that drifted low (a reservation
-- once made under another field, an old negative left by that bug) must not free more than was taken.
local function countDown(key, field)
  local value = tonumber(redis.call('HGET', key, field) or '0')
  redis.call('HSET', key, field, string.format('%d', math.max(value - 1, 0)))
end
