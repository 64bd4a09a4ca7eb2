--[[
  Keeps a newly registered OAuth client (RFC 7591) among the pending ones, those that never got a
  token, within their cap: past it the oldest registrations go first; any older than their unused
  life goes too (a few at each call: nothing sweeps on a timer). Its first token moves it out
  (actors/oauth-clients.ts keepClientInUse).
  KEYS[1] pending  hash: client_id -> its compact record (a JSON array: issued_at in s, name, redirect URIs)
  KEYS[2] times    sorted set: client_id -> registration time (ms)
  ARGV[1] now: number         now (ms)
  ARGV[2] clientId: string    client_id (mcl_...)
  ARGV[3] record: json        its compact record
  ARGV[4] maxPending: number  pending clients kept at most
  ARGV[5] pendingLife: number how long a pending client is kept (ms)
  Returns { ok: true, evicted: number } // evicted: pending clients dropped to stay within the cap
  Events: none.
]]
local now = tonumber(ARGV[1])
local stale = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now - tonumber(ARGV[5]), 'LIMIT', 0, 100)
if #stale > 0 then
  redis.call('HDEL', KEYS[1], unpack(stale))
  redis.call('ZREM', KEYS[2], unpack(stale))
end
redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
redis.call('ZADD', KEYS[2], string.format('%d', now), ARGV[2])
local over = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[4])
local evicted = 0
while over > 0 do
  local oldest = redis.call('ZPOPMIN', KEYS[2], math.min(over, 1000))
  for i = 1, #oldest, 2 do redis.call('HDEL', KEYS[1], oldest[i]) end
  evicted = evicted + #oldest / 2
  over = over - #oldest / 2
end
return cjson.encode({ ok = true, evicted = evicted })
