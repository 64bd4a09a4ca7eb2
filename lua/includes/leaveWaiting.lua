-- Takes a draft or a queued message out of where it waits, keeping its inbox's counters in step: a
-- draft leaves the space's and the inbox's draft sets (`drafts` - 1); a queued message leaves both
-- queues (`queued` - 1) and gives back the unit of its Paris day reserved in the inbox's slots, so that
-- day can take another departure (`day` '': nothing to give back, a delivery attempt already used it).
-- Every counter stops at zero (countDown).
-- `lists` = { drafts, inboxDrafts, queue, inboxQueue, slots, inbox }.
--- @include "countDown"
local function leaveWaiting(lists, id, status, day)
  if status == 'draft' then
    redis.call('ZREM', lists.drafts, id)
    redis.call('ZREM', lists.inboxDrafts, id)
    countDown(lists.inbox, 'drafts')
  else
    redis.call('ZREM', lists.queue, id)
    redis.call('ZREM', lists.inboxQueue, id)
    if day ~= '' then countDown(lists.slots, day) end
    countDown(lists.inbox, 'queued')
  end
end
