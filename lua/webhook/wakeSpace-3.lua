--[[
  Wakes the webhook delivery of a space that just appended events (actors/webhook-index.ts). Held by a
  worker: marked dirty, so settling it does not drop the new events, and for `now` also marked
  `<space id> now`, so settling it at a retry time of the old declaration does not hold the new one
  back. Otherwise due now when absent; a space waiting for a retry keeps its time, unless `now` is
  asked (a new declaration: its first event goes at once). `woke` tells the caller to rouse the idle
  workers, which otherwise look again only at their next due time or pause's end.
  KEYS[1] due     sorted set space id -> when its deliveries are next due (ms)
  KEYS[2] dirty   set of spaces with new events since their claim; `<space id> now` for a declaration
  KEYS[3] claims  hash space id -> token of the claim holding it
  ARGV[1] spaceId: string   space id
  ARGV[2] now: number       now (ms)
  ARGV[3] mode: 'now' | ''  'now' to bring a waiting space forward, '' otherwise
  Returns { woke: boolean } // true: the space became due now (it was neither held nor due)
  Events: none.
]]
if redis.call('HEXISTS', KEYS[3], ARGV[1]) == 1 then
  redis.call('SADD', KEYS[2], ARGV[1])
  if ARGV[3] == 'now' then redis.call('SADD', KEYS[2], ARGV[1] .. ' now') end
  return cjson.encode({ woke = false })
end
local added
if ARGV[3] == 'now' then
  added = redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
else
  added = redis.call('ZADD', KEYS[1], 'NX', ARGV[2], ARGV[1])
end
return cjson.encode({ woke = ARGV[3] == 'now' or added == 1 })
