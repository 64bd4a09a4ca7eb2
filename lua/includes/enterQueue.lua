-- Puts a message in its inbox's queue at a slot found by findSlot: reserves the slot's day, counts it
-- in the inbox (`queued` + 1; `priority`: a reply in a conversation, commitSlot) and scores it in the inbox's and the space's queues. Returns true when it
-- became the inbox's next departure: the caller then wakes the delivery worker for it.
--- @include "commitSlot"
local function enterQueue(lists, id, slot, day, priority)
  commitSlot(lists.slots, slot, day, priority)
  redis.call('HINCRBY', lists.inbox, 'queued', '1')
  local score = string.format('%d', slot)
  redis.call('ZADD', lists.inboxQueue, score, id)
  redis.call('ZADD', lists.queue, score, id)
  return redis.call('ZRANGE', lists.inboxQueue, '0', '0')[1] == id
end
