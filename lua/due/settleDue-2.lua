--[[
  Ends a worker's visit of a due space (actors/due-index.ts): due again at `next` (its earliest queued
  departure or lease end), or out of the index when nothing waits. Nothing changes when the space was
  registered again since the worker read its mark: what came meanwhile may not be in what it saw.
  KEYS[1] due    sorted set space id -> when its earliest departure is due (ms)
  KEYS[2] marks  hash space id -> how many registrations it had since it joined
  ARGV[1] spaceId: string    space id
  ARGV[2] mark: string       the mark the worker read before its visit ('' when there was none)
  ARGV[3] next: number | ''  when the space is due again (ms), or '' when nothing waits
  Returns { settled: boolean }
  Events: none.
]]
if (redis.call('HGET', KEYS[2], ARGV[1]) or '') ~= ARGV[2] then return cjson.encode({ settled = false }) end
if ARGV[3] == '' then
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('HDEL', KEYS[2], ARGV[1])
else
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
end
return cjson.encode({ settled = true })
