-- Puts a new draft where drafts wait: the space's and the inbox's draft sets, the inbox's `drafts` + 1
-- (leaveWaiting takes it out). `lists` = { drafts, inboxDrafts, inbox }.
local function enterDrafts(lists, id)
  redis.call('HINCRBY', lists.inbox, 'drafts', '1')
  redis.call('ZADD', lists.drafts, '0', id)
  redis.call('ZADD', lists.inboxDrafts, '0', id)
end
