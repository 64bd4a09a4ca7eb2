--[[
  Takes over claims whose feeder died before recording them (claimed longer than the lease ago): each
  is scored again at now, atomically, so of two feeders only one takes it. The caller runs its step
  again with the same idempotency key: a message already made is answered, not made twice.
  KEYS[1] campaignContacts  hash address -> state JSON
  KEYS[2] campaignClaims    sorted set address -> claim time (ms)
  ARGV[1] now: number          now (ms)
  ARGV[2] staleBefore: number  claimed before this (ms) is stale
  ARGV[3] most: number         most to take
  Returns { claims: { email: string, state: ContactState }[] | EmptyTable }
  Events: none; no journal line.
]]
local claims = {}
for _, email in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', '(' .. ARGV[2], 'LIMIT', '0', ARGV[3])) do
  local raw = redis.call('HGET', KEYS[1], email)
  local state = raw and cjson.decode(raw)
  if state and state.s == 'claimed' then
    redis.call('ZADD', KEYS[2], ARGV[1], email)
    claims[#claims + 1] = { email = email, state = state }
  else
    redis.call('ZREM', KEYS[2], email)
  end
end
return cjson.encode({ claims = claims })
