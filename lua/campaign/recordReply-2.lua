--[[
  A contact replied in its campaign thread (the inbound store answered the thread's campaign): its
  state follows at once, so get_contact and campaign_status agree without waiting for the feeder.
  `written`: `stopped` with reason `replied`, out of the follow-ups. `claimed` for a follow-up (a
  feeder is writing it now): marked `rp`, so that the feeder's record (lua/campaign/recordContact)
  stops it instead of writing it again. Anything else, or a state of another thread, stays.
  KEYS[1] campaignContacts   hash address -> state JSON
  KEYS[2] campaignFollowUps  sorted set address -> when the next follow-up is due (ms)
  ARGV[1] email: string      the contact's address (the thread's contact)
  ARGV[2] threadId: string   the thread the reply came in
  Returns { stopped: boolean } // false: not written to in this thread, or already over
  Events: none; no journal line (the reply's own tells it).
]]
local raw = redis.call('HGET', KEYS[1], ARGV[1])
local state = raw and cjson.decode(raw)
if not state or state.t ~= ARGV[2] then return cjson.encode({ stopped = false }) end
if state.s == 'written' then
  redis.call('HSET', KEYS[1], ARGV[1], cjson.encode({ s = 'stopped', k = state.k, i = state.i, t = state.t, m = state.m, r = 'replied' }))
  redis.call('ZREM', KEYS[2], ARGV[1])
  return cjson.encode({ stopped = true })
end
if state.s == 'claimed' and not state.rp then
  state.rp = 1
  redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(state))
end
return cjson.encode({ stopped = false })
