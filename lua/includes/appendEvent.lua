-- Event writer: the packed event (built by the caller, actors/events.ts prepareEvent: the evt id's body,
-- the type code, the message id's body, the subject JSON and the data JSON, one per line) appended to the
-- space's stream as the entry's fields `i`, `t`, `m`, `s`, `d`, in the same script as the state change
-- it reports. Every entry has those five fields, so the stream keeps their names once per node and each
-- entry only its values. The stream is the outbox that event_feed and the webhook workers read.
-- Entry ids follow the injected clock, not the server's: `<ms>-*` with the ms of the event id (its
-- first 10 Crockford base32 characters, from the caller's clock), so retention and tests need no sleep;
-- `i` then keeps only the id's last 10 characters, the reader takes the rest from the entry's ms.
-- When that clock is behind the stream's last id (another front end's clock ran ahead), the entry takes
-- the last id's ms and `i` the whole body: ids stay strictly increasing, which event_feed's cursors rely on.
-- Trimmed by age, never by count: entries older than 30 days before this one go (interface.md: kept at
-- least thirty days; docs/events.md).
--- @include "eventMs"
local EVENT_RETENTION_MS = 30 * 86400000

local function appendEvent(eventsKey, event)
  local values = {}
  local from = 1
  for _ = 1, 4 do
    local stop = string.find(event, '\n', from, true)
    if not stop then error('appendEvent: a packed event has five lines') end
    values[#values + 1] = string.sub(event, from, stop - 1)
    from = stop + 1
  end
  values[5] = string.sub(event, from)
  local ms = eventMs(event)
  local minId = string.format('%.0f', ms - EVENT_RETENTION_MS)
  local added = redis.pcall('XADD', eventsKey, 'MINID', minId, string.format('%.0f', ms) .. '-*',
    'i', string.sub(values[1], 11), 't', values[2], 'm', values[3], 's', values[4], 'd', values[5])
  if type(added) == 'table' and added.err then
    if not string.find(added.err, 'equal or smaller', 1, true) then error(added.err) end
    local info = redis.call('XINFO', 'STREAM', eventsKey)
    for i = 1, #info, 2 do
      if info[i] == 'last-generated-id' then
        local lastMs = string.match(info[i + 1], '^(%d+)-')
        return redis.call('XADD', eventsKey, 'MINID', minId, lastMs .. '-*',
          'i', values[1], 't', values[2], 'm', values[3], 's', values[4], 'd', values[5])
      end
    end
  end
  return added
end
