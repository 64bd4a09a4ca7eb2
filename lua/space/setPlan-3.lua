--[[
  Sets the space's plan by hand (the operator's CLI): the plan and its billing status, with a journal line.
  KEYS[1] space         hash of the space's fields
  KEYS[2] journal       hash line id -> line JSON
  KEYS[3] journalIndex  sorted set "<ref> <line id>"
  ARGV[1] plan name (`none` ends the plan)
  ARGV[2] billing status: `active`, or `none` without plan
  ARGV[3] journal line id
  ARGV[4] journal line JSON (plan.set)
  ARGV[5] journal refs JSON array
  Returns {"ok":true} | {"error":"not_found"} (no such space).
  Events: none; journal line plan.set.
]]
--- @include "refuse"
--- @include "appendJournal"
if redis.call('EXISTS', KEYS[1]) == 0 then return refuse('not_found') end
redis.call('HSET', KEYS[1], 'plan', ARGV[1], 'billing_status', ARGV[2])
appendJournal(KEYS[2], KEYS[3], ARGV[3], ARGV[4], ARGV[5])
return cjson.encode({ ok = true })
