-- Event writer: the envelope JSON (built by the caller, id `evt_...`) appended to the space's stream,
-- in the same script as the state change it reports. The stream is the outbox that event_feed and the
-- webhook workers read.
-- Entry ids follow the injected clock, not the server's: `<ms>-*` with the ms of the event id (its
-- first 10 Crockford base32 characters, from the caller's clock), so retention and tests need no sleep.
-- When that clock is behind the stream's last id (another front end's clock ran ahead), the entry takes
-- the last id's ms: ids stay strictly increasing, which event_feed's cursors rely on.
-- Trimmed by age, never by count: entries older than 30 days before this one go (interface.md: kept at
-- least thirty days; docs/events.md).
--- @include "eventMs"
local EVENT_RETENTION_MS = 30 * 86400000

local function appendEvent(eventsKey, eventJson)
  local ms = eventMs(eventJson)
  local minId = string.format('%.0f', ms - EVENT_RETENTION_MS)
  local added = redis.pcall('XADD', eventsKey, 'MINID', minId, string.format('%.0f', ms) .. '-*', 'e', eventJson)
  if type(added) == 'table' and added.err then
    if not string.find(added.err, 'equal or smaller', 1, true) then error(added.err) end
    local info = redis.call('XINFO', 'STREAM', eventsKey)
    for i = 1, #info, 2 do
      if info[i] == 'last-generated-id' then
        local lastMs = string.match(info[i + 1], '^(%d+)-')
        return redis.call('XADD', eventsKey, 'MINID', minId, lastMs .. '-*', 'e', eventJson)
      end
    end
  end
  return added
end
