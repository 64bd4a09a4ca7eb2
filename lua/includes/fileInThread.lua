-- Files a message id in its thread's list of messages (oldest first). A thread of at most
-- THREAD_IDS_IN_HASH messages keeps them in its hash's `msgs` field, space-separated: a sorted set of
-- its own costs a thread of one message about 170 bytes of Redis. The next message moves them all into
-- the thread's sorted set (score 0, ids in time order), where a thread that has one keeps adding them.
-- Readers take the field when it is there, else the set (threadIdsIn, actors/stored-records.ts).
local function fileInThread(threadKey, listKey, id)
  local THREAD_IDS_IN_HASH = 8
  local inHash = redis.call('HGET', threadKey, 'msgs')
  if redis.call('EXISTS', listKey) == 0 then
    if not inHash then
      redis.call('HSET', threadKey, 'msgs', id)
      return
    end
    local _, spaces = string.gsub(inHash, ' ', ' ')
    if spaces + 1 < THREAD_IDS_IN_HASH then
      redis.call('HSET', threadKey, 'msgs', inHash .. ' ' .. id)
      return
    end
  end
  if inHash then
    local scored = {}
    for moved in string.gmatch(inHash, '%S+') do
      scored[#scored + 1] = '0'
      scored[#scored + 1] = moved
    end
    redis.call('ZADD', listKey, unpack(scored))
    redis.call('HDEL', threadKey, 'msgs')
  end
  redis.call('ZADD', listKey, '0', id)
end
