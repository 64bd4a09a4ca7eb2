--[[
  Sets the space's plan: by hand (the operator's CLI), or as the payment provider reports its
  subscription (src/http/stripe-webhook.ts). The plan, its billing status and paid period, with a
  journal line. A provider's event older than the last one applied, or the same one again (the
  provider retries), changes nothing: events may arrive out of order.
  KEYS[1] space         hash of the space's fields
  KEYS[2] journal       hash line id -> line JSON
  KEYS[3] journalIndex  hash: the index lists of line id bodies (journalIndexAdd)
  ARGV[1] plan: string             plan name (`none` ends the plan)
  ARGV[2] billing: 'active' | 'past_due' | 'cancelled' | 'none'  billing status, `none` without plan
  ARGV[3] paidUntil: number | ''   end of the paid period (ms), '' when none is known
  ARGV[4] providerEventId: string  the provider's event id, '' for the operator
  ARGV[5] providerEventAt: number | ''  the provider's event time (ms), '' for the operator
  ARGV[6] lineId: string           journal line id
  ARGV[7] lineJson: json           journal line JSON (plan.set or billing.updated)
  ARGV[8] lineRefs: json           journal refs JSON array
  Returns { applied: boolean } // false: a stale or repeated event
  Refuses not_found (no such space)
  Events: none; journal line ARGV[7].
]]
--- @include "refuse"
--- @include "appendJournal"
--- @include "replayedLine"
if replayedLine(KEYS[2], ARGV[6]) then return cjson.encode({ applied = true }) end
if redis.call('EXISTS', KEYS[1]) == 0 then return refuse('not_found') end
if ARGV[4] ~= '' then
  local last = redis.call('HMGET', KEYS[1], 'billing_event_at', 'billing_event_id')
  if last[2] == ARGV[4] or (last[1] and tonumber(last[1]) > tonumber(ARGV[5])) then
    return cjson.encode({ applied = false })
  end
  redis.call('HSET', KEYS[1], 'billing_event_at', ARGV[5], 'billing_event_id', ARGV[4])
end
redis.call('HSET', KEYS[1], 'plan', ARGV[1], 'billing_status', ARGV[2], 'current_period_end', ARGV[3])
appendJournal(KEYS[2], KEYS[3], ARGV[6], ARGV[7], ARGV[8])
return cjson.encode({ applied = true })
