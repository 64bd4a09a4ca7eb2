-- What an answer tells of the inbox after a change: its draft and queued counters, its next
-- departure (ms, 0 when nothing waits) and today's sends, read in the same script so they match the
-- change and the caller needs no second round trip.
local function inboxFigures(inboxKey, inboxQueueKey, slotsKey, today)
  local head = redis.call('ZRANGE', inboxQueueKey, '0', '0', 'WITHSCORES')
  local counters = redis.call('HMGET', inboxKey, 'drafts', 'queued')
  return {
    drafts = tonumber(counters[1] or '0'),
    queued = tonumber(counters[2] or '0'),
    next = tonumber(head[2] or '0'),
    sent = tonumber(redis.call('HGET', slotsKey, 'sent:' .. today) or '0'),
  }
end
