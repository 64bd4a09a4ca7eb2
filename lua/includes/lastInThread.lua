-- The id of a thread's latest message: the last of its hash's `msgs` field when it keeps them there,
-- else the last of its sorted set (lua/includes/fileInThread.lua); false when it has none.
local function lastInThread(threadKey, listKey)
  local inHash = redis.call('HGET', threadKey, 'msgs')
  if inHash then return string.match(inHash, '(%S+)$') end
  return redis.call('ZRANGE', listKey, -1, -1)[1] or false
end
