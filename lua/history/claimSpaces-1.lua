--[[
  Claims the spaces of a history index shard whose threads are due for a look (actors/history-index.ts):
  each is scored again at the end of the lease, so no other worker takes it meanwhile; the visit then
  scores it at its next look (a worker that dies leaves it to the lease's end).
  KEYS[1] spaces  sorted set: space id -> when its history is next looked at (ms)
  ARGV[1] now: number    ms
  ARGV[2] lease: number  ms a claim holds
  ARGV[3] max: number    spaces claimed at most
  Returns { spaces: string[] }
  Events: none.
]]
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', '0', ARGV[3])
-- cjson writes an empty table as an object.
if #due == 0 then return '{"spaces":[]}' end
local leaseEnd = tostring(tonumber(ARGV[1]) + tonumber(ARGV[2]))
for _, spaceId in ipairs(due) do redis.call('ZADD', KEYS[1], 'XX', leaseEnd, spaceId) end
return cjson.encode({ spaces = due })
