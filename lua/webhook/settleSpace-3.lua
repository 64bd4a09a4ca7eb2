--[[
  Ends a worker's claim on a space: at once when a webhook was declared during the claim (its retry
  state was cleared after the worker read it), else due again at `next` (a retry, or the rest of a long
  backlog), at once when events came during the claim, otherwise out of the index until the next wake.
  Nothing changes when the claim is no longer this one (its lease ended and another worker took the space).
  KEYS[1] due     sorted set space id -> when its deliveries are next due (ms)
  KEYS[2] dirty   set of spaces with new events since their claim; `<space id> now` for a declaration
  KEYS[3] claims  hash space id -> token of the claim holding it
  ARGV[1] spaceId: string    space id
  ARGV[2] token: string      the claim's token (its lease end, ms)
  ARGV[3] next: number | ''  when the space is due again (ms), or '' when nothing waits
  ARGV[4] now: number        now (ms)
  Returns { settled: boolean }
  Events: none.
]]
if redis.call('HGET', KEYS[3], ARGV[1]) ~= ARGV[2] then return cjson.encode({ settled = false }) end
redis.call('HDEL', KEYS[3], ARGV[1])
local dirty = redis.call('SREM', KEYS[2], ARGV[1]) == 1
local declared = redis.call('SREM', KEYS[2], ARGV[1] .. ' now') == 1
if declared then
  redis.call('ZADD', KEYS[1], ARGV[4], ARGV[1])
elseif ARGV[3] ~= '' then
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
elseif dirty then
  redis.call('ZADD', KEYS[1], ARGV[4], ARGV[1])
else
  redis.call('ZREM', KEYS[1], ARGV[1])
end
return cjson.encode({ settled = true })
