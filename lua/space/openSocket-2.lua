--[[
  Counts a realtime socket in (src/http/realtime.ts), at most ARGV[4] at once for its key and ARGV[5]
  for its space, shared by every front end. A socket's place ends by itself at its end time unless its
  front end pushes it on (actors/sockets.ts): one that died holding sockets does not hold them for ever.
  KEYS[1] spaceSockets  sorted set socket id -> end of its place (ms), the space's sockets
  KEYS[2] keySockets    sorted set socket id -> end of its place (ms), the key's sockets
  ARGV[1] socketId: string     socket id
  ARGV[2] now: number          now (ms)
  ARGV[3] until: number        end of its place (ms)
  ARGV[4] perKey: number       most sockets of one key
  ARGV[5] perSpace: number     most sockets of one space
  Returns { opened: true }
  Refuses socket_limit { scope, max }
  Events: none.
]]
--- @include "refuse"
local now, ends = tonumber(ARGV[2]), tonumber(ARGV[3])
local limits = { { KEYS[2], tonumber(ARGV[4]), 'key' }, { KEYS[1], tonumber(ARGV[5]), 'space' } }
for _, limit in ipairs(limits) do
  redis.call('ZREMRANGEBYSCORE', limit[1], '-inf', now)
  if redis.call('ZCARD', limit[1]) >= limit[2] then return refuse('socket_limit', { scope = limit[3], max = limit[2] }) end
end
for _, limit in ipairs(limits) do
  redis.call('ZADD', limit[1], ends, ARGV[1])
  redis.call('PEXPIRE', limit[1], math.max(1, ends - now))
end
return cjson.encode({ opened = true })
