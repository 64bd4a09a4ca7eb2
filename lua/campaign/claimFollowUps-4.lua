--[[
  Claims the contacts of a running campaign whose next follow-up is due: each leaves the follow-ups,
  its state becomes claimed for the next step (k + 1, keeping inbox, thread and last message) and is
  scored in the claims, so two feeders never write one follow-up twice.
  KEYS[1] campaign          hash of the campaign's fields (status)
  KEYS[2] campaignContacts  hash address -> state JSON
  KEYS[3] campaignFollowUps sorted set address -> when the next follow-up is due (ms)
  KEYS[4] campaignClaims    sorted set address -> claim time (ms)
  ARGV[1] now: number   now (ms)
  ARGV[2] most: number  most contacts to claim
  Returns { claims: { email: string, state: ContactState }[] | EmptyTable }
  Events: none; no journal line.
]]
if redis.call('HGET', KEYS[1], 'status') ~= 'running' then return cjson.encode({ claims = {} }) end
local claims = {}
for _, email in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', ARGV[1], 'LIMIT', '0', ARGV[2])) do
  redis.call('ZREM', KEYS[3], email)
  local raw = redis.call('HGET', KEYS[2], email)
  local state = raw and cjson.decode(raw)
  if state and state.s == 'written' then
    state.s, state.k, state.at = 'claimed', state.k + 1, tonumber(ARGV[1])
    redis.call('HSET', KEYS[2], email, cjson.encode(state))
    redis.call('ZADD', KEYS[4], ARGV[1], email)
    claims[#claims + 1] = { email = email, state = state }
  end
end
return cjson.encode({ claims = claims })
