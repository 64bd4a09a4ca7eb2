-- The oldest entry id a space's event stream keeps at `ms`: older entries go, by age, never by count
-- (docs/contract.md: kept at least thirty days; docs/events.md). appendEvent trims to it at each append,
-- events/trimEvents when the history mover visits a space that may have written nothing for long.
local EVENT_RETENTION_MS = 30 * 86400000

local function eventsKeptFrom(ms)
  return string.format('%.0f', ms - EVENT_RETENTION_MS)
end
