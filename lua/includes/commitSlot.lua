-- Takes a departure found by findSlot: counts it in its day's quota and moves the inbox's latest
-- reserved departure (`last`) on, which the next search spaces from.
local function commitSlot(slotsKey, slot, day)
  redis.call('HINCRBY', slotsKey, day, '1')
  local last = tonumber(redis.call('HGET', slotsKey, 'last') or '0')
  if slot > last then redis.call('HSET', slotsKey, 'last', string.format('%d', slot)) end
end
