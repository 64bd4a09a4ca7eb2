--[[
  Records what became of a claimed contact, once: only while it is still claimed for that step (a
  second feeder's late answer finds it recorded and writes nothing). `written`: its message is made
  (and its next follow-up is due at ARGV[4], if any); `skipped` or `stopped`: nothing more for it;
  `release`: back to what it was before the claim (a first message: pending, fed again later; a
  follow-up: written, due again at ARGV[4]). A contact that replied meanwhile (`rp`, set by
  lua/campaign/recordReply while it was claimed) is `stopped` with reason `replied` instead of
  `written` or released.
  KEYS[1] campaignContacts  hash address -> state JSON
  KEYS[2] campaignClaims    sorted set address -> claim time (ms)
  KEYS[3] campaignFollowUps sorted set address -> when the next follow-up is due (ms)
  KEYS[4] campaignPending   sorted set address -> rank, handed back
  KEYS[5] audienceMembers   sorted set address -> rank (a released first claim keeps its rank)
  KEYS[6] campaign          hash of the campaign's fields: a first claim recorded leaves `claimed:<inbox id>`
  ARGV[1] email: string            the contact's address
  ARGV[2] step: number             the claimed step
  ARGV[3] state: json | 'release'  the new state JSON, or 'release'
  ARGV[4] nextAt: number | ''      next follow-up due (ms), '' for none
  Returns { recorded: boolean }
  Events: none; no journal line (the message's own tells it).
]]
local raw = redis.call('HGET', KEYS[1], ARGV[1])
local state = raw and cjson.decode(raw)
if not state or state.s ~= 'claimed' or state.k ~= tonumber(ARGV[2]) then return cjson.encode({ recorded = false }) end
redis.call('ZREM', KEYS[2], ARGV[1])
if state.k == 0 then
  local field = 'claimed:' .. state.i
  if redis.call('HINCRBY', KEYS[6], field, '-1') < 0 then redis.call('HSET', KEYS[6], field, '0') end
end
if state.rp then
  -- The reply came while this step was written: its message, if made, leaves no more (the delivery
  -- worker reads the thread); the contact stops here, unless the feeder already stopped or skipped it.
  local outcome = ARGV[3] ~= 'release' and cjson.decode(ARGV[3]) or { s = 'written', k = state.k - 1, i = state.i, t = state.t, m = state.m }
  if outcome.s == 'written' then
    redis.call('HSET', KEYS[1], ARGV[1], cjson.encode({ s = 'stopped', k = outcome.k, i = outcome.i, t = outcome.t, m = outcome.m, r = 'replied' }))
    return cjson.encode({ recorded = true })
  end
end
if ARGV[3] ~= 'release' then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
elseif state.k == 0 then
  redis.call('HDEL', KEYS[1], ARGV[1])
  redis.call('ZADD', KEYS[4], redis.call('ZSCORE', KEYS[5], ARGV[1]) or '0', ARGV[1])
else
  state.s, state.k, state.at = 'written', state.k - 1, nil
  redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(state))
end
if ARGV[4] ~= '' then redis.call('ZADD', KEYS[3], ARGV[4], ARGV[1]) end
return cjson.encode({ recorded = true })
