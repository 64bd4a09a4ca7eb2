-- Departure planning for one inbox: the earliest moment, not before `earliest`, at least `spacingMs`
-- after the inbox's latest reserved departure, inside an open interval whose day still has quota.
-- `intervals` = { {day, start, end, quota}, ... } in time order (built by the caller from the sending
-- window and the warm-up). Reads only; `commitSlot` writes the reservation.
local function findSlot(slotsKey, intervals, earliest, spacingMs)
  local last = tonumber(redis.call('HGET', slotsKey, 'last') or '0')
  local from = earliest
  if last > 0 and last + spacingMs > from then from = last + spacingMs end
  for _, interval in ipairs(intervals) do
    local day, first, stop, quota = interval[1], interval[2], interval[3], interval[4]
    if stop > from then
      local used = tonumber(redis.call('HGET', slotsKey, day) or '0')
      if used < quota then
        local slot = math.max(first, from)
        if slot < stop then return slot, day end
      end
    end
  end
  return nil, nil
end

local function commitSlot(slotsKey, slot, day)
  redis.call('HINCRBY', slotsKey, day, 1)
  local last = tonumber(redis.call('HGET', slotsKey, 'last') or '0')
  if slot > last then redis.call('HSET', slotsKey, 'last', slot) end
end
