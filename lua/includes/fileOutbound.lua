-- Files a new outbound message in its thread: a first message writes the new thread from
-- `threadFields` (field/value pairs, message_count 1); a reply counts in the existing thread, moves
-- its last activity and writes the `threadFields` it changes (its snippet). Either way the message joins the thread's messages and its loop guard window
-- (`window`: the entries the guard read, none for a new thread), and the thread moves up the space's
-- threads. Returns the thread's message count. A new thread's hash is written in one HSET (the
-- caller's fields may carry its search postings: indexMessage's `newThread`).
-- `lists` = { thread, threadMessages, threads }.
--- @include "keepLoopWindow"
--- @include "fileInThread"
local function fileOutbound(lists, first, threadId, id, nowText, nowIso, threadFields, window)
  local messageCount = 1
  if first then
    -- A new thread: its window and message list are this message alone, written with its fields.
    redis.call('HSET', lists.thread, 'loop_window', nowText .. ' ' .. id, 'msgs', id, unpack(threadFields))
  else
    messageCount = redis.call('HINCRBY', lists.thread, 'message_count', '1')
    redis.call('HSET', lists.thread, 'last_message_at', nowIso, 'last_direction', 'outbound', unpack(threadFields))
    window[#window + 1] = nowText .. ' ' .. id
    keepLoopWindow(lists.thread, window)
    fileInThread(lists.thread, lists.threadMessages, id)
  end
  redis.call('ZADD', lists.threads, nowText, threadId)
  return messageCount
end
