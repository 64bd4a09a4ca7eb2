-- The 30-day duplicate rule: a first message to a recipient the inbox began a thread with less than
-- `window` ms ago is refused, naming that thread. `recipientsKey` holds recipient -> "<thread id> <ms>".
--- @include "refuse"
local function duplicateRefusal(recipientsKey, to, now, window)
  local last = redis.call('HGET', recipientsKey, to)
  if not last then return nil end
  local lastThread, at = string.match(last, '^(%S+) (%S+)$')
  if now - tonumber(at) < window then return refuse('duplicate_recipient', { thread_id = lastThread }) end
  return nil
end
