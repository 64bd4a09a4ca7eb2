-- Files a new outbound message in its thread: a first message writes the new thread from
-- `threadFields` (field/value pairs, message_count 1); a reply counts in the existing thread and moves
-- its last activity. Either way the message joins the thread's messages and its loop guard window,
-- and the thread moves up the space's threads. Returns the thread's message count.
-- `lists` = { thread, threadMessages, threadOutbound, threads }.
local function fileOutbound(lists, first, threadId, id, nowText, nowIso, threadFields)
  local messageCount = 1
  if first then
    redis.call('HSET', lists.thread, unpack(threadFields))
  else
    messageCount = redis.call('HINCRBY', lists.thread, 'message_count', '1')
    redis.call('HSET', lists.thread, 'last_message_at', nowIso, 'last_direction', 'outbound')
  end
  redis.call('ZADD', lists.threadMessages, '0', id)
  redis.call('ZADD', lists.threadOutbound, nowText, id)
  redis.call('ZADD', lists.threads, nowText, threadId)
  return messageCount
end
