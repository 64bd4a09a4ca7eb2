-- Puts a message in its inbox's queue at a slot found by findSlot (with the reserved departures it
-- read: commitSlot): reserves the slot's day, counts it in the inbox (`queued` + 1; `priority`: a reply
-- in a conversation) and scores it in the inbox's and the space's queues. Returns true when it became
-- the inbox's next departure (the caller then wakes the delivery worker for it), the inbox's `queued`
-- count and its next departure (ms) after it.
--- @include "commitSlot"
local function enterQueue(lists, id, slot, day, priority, reserved)
  commitSlot(lists.slots, slot, day, priority, reserved)
  local queued = redis.call('HINCRBY', lists.inbox, 'queued', '1')
  local score = string.format('%d', slot)
  redis.call('ZADD', lists.inboxQueue, score, id)
  redis.call('ZADD', lists.queue, score, id)
  local head = redis.call('ZRANGE', lists.inboxQueue, '0', '0', 'WITHSCORES')
  return head[1] == id, queued, tonumber(head[2])
end
