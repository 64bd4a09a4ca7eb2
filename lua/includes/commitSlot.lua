-- Takes a departure found by findSlot: counts it in its day's quota and moves the inbox's latest
-- reserved departure (`last`) on, which the next search spaces from; a `priority` one (a reply in a
-- conversation) moves `reply_last` on too. A day whose count went negative (decrements before
-- countDown) restarts from zero, so it grants no more than an empty day. `reserved`: `last` and
-- `reply_last` as findSlot read them in the same script (its third answer).
local function commitSlot(slotsKey, slot, day, priority, reserved)
  if redis.call('HINCRBY', slotsKey, day, '1') < 1 then redis.call('HSET', slotsKey, day, '1') end
  local text = string.format('%d', slot)
  if slot > tonumber(reserved[1] or '0') then redis.call('HSET', slotsKey, 'last', text) end
  if priority and slot > tonumber(reserved[2] or '0') then redis.call('HSET', slotsKey, 'reply_last', text) end
end
