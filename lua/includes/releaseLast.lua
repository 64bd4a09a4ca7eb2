-- A cancelled departure that was the inbox's latest reservation (`last` in its slots, which the next
-- slot search spaces from) gives its place back, so later messages do not wait behind it: `last`
-- becomes the latest departure still queued; with none queued, the cancelled slot less the spacing,
-- which is never before the departure it was spaced from (a slot is at least `spacingMs` after the
-- `last` it was found from). It never moves later (a retry re-queued past it is no reservation).
local function releaseLast(slotsKey, inboxQueueKey, slot, spacingMs)
  local last = tonumber(redis.call('HGET', slotsKey, 'last') or '0')
  if last ~= slot then return end
  local latest = redis.call('ZREVRANGE', inboxQueueKey, '0', '0', 'WITHSCORES')[2]
  local released = math.min(slot, latest and tonumber(latest) or slot - spacingMs)
  redis.call('HSET', slotsKey, 'last', string.format('%d', released))
end
