-- The loop guard of a thread: at most `most` outbound messages within `window` ms since the
-- correspondent last wrote (`entries`: the thread's window as loopWindow read it; receiveInbound clears
-- it). Refuses with the wait until the oldest one leaves the window, or answers nil.
--- @include "refuse"
local function loopGuardRefusal(entries, now, most, window)
  if #entries < most then return nil end
  local wait = math.ceil((tonumber(string.match(entries[1], '^%d+')) + window - now) / 1000)
  return refuse('thread_loop_guard', { retry_after_seconds = math.max(wait, 1) })
end
