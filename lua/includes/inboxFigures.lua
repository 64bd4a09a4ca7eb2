-- What an answer tells of the inbox after a change: its draft and queued counters, its next
-- departure (ms, 0 when nothing waits) and today's sends, read in the same script so they match the
-- change and the caller needs no second round trip. `known` ({ drafts, queued, next, sent }, or nil):
-- the counters, next departure and today's sends as the calling script's own reads and writes answered them.
local function inboxFigures(inboxKey, inboxQueueKey, slotsKey, today, known)
  if not known then
    local head = redis.call('ZRANGE', inboxQueueKey, '0', '0', 'WITHSCORES')
    local counters = redis.call('HMGET', inboxKey, 'drafts', 'queued')
    known = { drafts = tonumber(counters[1] or '0'), queued = tonumber(counters[2] or '0'), next = tonumber(head[2] or '0'),
      sent = tonumber(redis.call('HGET', slotsKey, 'sent:' .. today) or '0') }
  end
  return known
end
