-- Departure planning for one inbox: the earliest moment, not before `earliest`, at least `spacingMs`
-- after the inbox's latest reserved departure, inside an open interval whose day still has quota.
-- `intervals` = "<day> <start> <end> <quota>,..." in time order (built by the caller from the sending
-- window and the warm-up: src/sending/plan.ts). A string read lazily: most searches stop at the first
-- interval, and a list decoded from JSON cost more than the search. The pattern matches the day's exact
-- shape: a looser one (`%S+`) took the separating comma into the day, and every day after the first
-- was reserved under a field `,<day>` its departures never read. Reads only; `commitSlot` writes.
local function findSlot(slotsKey, intervals, earliest, spacingMs)
  local last = tonumber(redis.call('HGET', slotsKey, 'last') or '0')
  local from = earliest
  if last > 0 and last + spacingMs > from then from = last + spacingMs end
  for day, first, stop, quota in string.gmatch(intervals, '(%d%d%d%d%-%d%d%-%d%d) (%d+) (%d+) (%d+)') do
    stop = tonumber(stop)
    if stop > from then
      local used = tonumber(redis.call('HGET', slotsKey, day) or '0')
      if used < tonumber(quota) then
        local slot = math.max(tonumber(first), from)
        if slot < stop then return slot, day end
      end
    end
  end
  return nil, nil
end

-- A day whose count went negative (decrements before countDown) restarts from zero, so it grants no
-- more than an empty day.
local function commitSlot(slotsKey, slot, day)
  if redis.call('HINCRBY', slotsKey, day, '1') < 1 then redis.call('HSET', slotsKey, day, '1') end
  local last = tonumber(redis.call('HGET', slotsKey, 'last') or '0')
  if slot > last then redis.call('HSET', slotsKey, 'last', string.format('%d', slot)) end
end
