-- Event writer: the packed event (built by the caller, actors/events.ts prepareEvent: the evt id's body,
-- the type code, the message id's body, the subject JSON and the data JSON, one per line) appended to the
-- space's stream as the entry's one field `p`, in the same script as the state change it reports. One
-- field, not five: a reader's Redis client decodes each field as a string of its own, and ioredis spent
-- 2.5 times as long on a page of five-field entries (BENCHMARKS.md, "Events"); the stream's memory is
-- the same (one field name per node either way).
-- Entry ids follow the injected clock, not the server's: `<ms>-*` with the ms of the event id (its
-- first 10 Crockford base32 characters, from the caller's clock), so retention and tests need no sleep;
-- the first line then keeps only the id's last 10 characters, the reader takes the rest from the entry's ms.
-- When that clock is behind the stream's last id (another front end's clock ran ahead), the entry takes
-- the last id's ms and the first line the whole body: ids stay strictly increasing, which event_feed's
-- cursors rely on.
-- Trimmed by age at each append (eventsKeptFrom).
--- @include "eventMs"
--- @include "eventsKeptFrom"

local function appendEvent(eventsKey, event)
  local _, lines = string.gsub(event, '\n', '\n')
  if lines ~= 4 then error('appendEvent: a packed event has five lines') end
  local ms = eventMs(event)
  local minId = eventsKeptFrom(ms)
  local added = redis.pcall('XADD', eventsKey, 'MINID', minId, string.format('%.0f', ms) .. '-*', 'p', string.sub(event, 11))
  if type(added) == 'table' and added.err then
    if not string.find(added.err, 'equal or smaller', 1, true) then error(added.err) end
    local info = redis.call('XINFO', 'STREAM', eventsKey)
    for i = 1, #info, 2 do
      if info[i] == 'last-generated-id' then
        local lastMs = string.match(info[i + 1], '^(%d+)-')
        return redis.call('XADD', eventsKey, 'MINID', minId, lastMs .. '-*', 'p', event)
      end
    end
  end
  return added
end
