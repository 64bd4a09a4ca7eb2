-- Takes a departure found by findSlot: counts it in its day's quota and moves the inbox's latest
-- reserved departure (`last`) on, which the next search spaces from. A day whose count went negative
-- (decrements before countDown) restarts from zero, so it grants no more than an empty day.
local function commitSlot(slotsKey, slot, day)
  if redis.call('HINCRBY', slotsKey, day, '1') < 1 then redis.call('HSET', slotsKey, day, '1') end
  local last = tonumber(redis.call('HGET', slotsKey, 'last') or '0')
  if slot > last then redis.call('HSET', slotsKey, 'last', string.format('%d', slot)) end
end
