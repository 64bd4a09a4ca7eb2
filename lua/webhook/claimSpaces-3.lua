--[[
  Claims spaces whose webhook deliveries are due, for one worker: each is scored at the end of the
  lease, which is the claim's token. A worker that dies never settles: its spaces come due again when
  the lease ends and another worker takes them, with their unacknowledged entries.
  KEYS[1] due     sorted set space id -> when its deliveries are next due (ms)
  KEYS[2] dirty   set of spaces with new events since their claim; `<space id> now` for a declaration
  KEYS[3] claims  hash space id -> token of the claim holding it
  ARGV[1] now: number    now (ms)
  ARGV[2] lease: number  lease (ms)
  ARGV[3] most: number   most spaces to claim
  Returns { spaces: string[] | EmptyTable, token: string, next: number | null } // token: the lease's end (ms); next: the shard's earliest due time left, leases included (ms), null when empty
  Events: none.
]]
local now = tonumber(ARGV[1])
-- A string, compared as such by settleSpace: the exact value handed to the worker.
local token = string.format('%.0f', now + tonumber(ARGV[2]))
local spaces = redis.call('ZRANGE', KEYS[1], '-inf', now, 'BYSCORE', 'LIMIT', 0, tonumber(ARGV[3]))
for _, space in ipairs(spaces) do
  redis.call('ZADD', KEYS[1], token, space)
  redis.call('SREM', KEYS[2], space, space .. ' now')
  redis.call('HSET', KEYS[3], space, token)
end
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return cjson.encode({ spaces = spaces, token = token, next = first[2] and tonumber(first[2]) or cjson.null })
