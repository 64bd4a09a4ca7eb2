--[[
  Creates an inbox once its address is claimed (actors/inbox.ts): domain state, plan cap, free-plan
  rule and the 7-day creation limit decided together, so concurrent calls never exceed a limit.
  KEYS[1] space           hash of the space's fields (its `plan`)
  KEYS[2] inboxes         sorted set of live inbox ids
  KEYS[3] inboxCreations  sorted set inbox id by creation time (ms), deleted ones included
  KEYS[4] inbox           hash of the new inbox's fields
  KEYS[5] domain          hash of the space's own domain the inbox goes on (not read for a common-domain inbox)
  KEYS[6] journal         hash line id -> line JSON
  KEYS[7] journalIndex    hash: the index lists of line id bodies (journalIndexAdd)
  ARGV[1] inboxId: string  inbox id
  ARGV[2] fields: json     inbox fields as JSON object (string values)
  ARGV[3] now: number      now (ms)
  ARGV[4] common: flag     an inbox of the common domain (else of the space's own domain)
  ARGV[5] caps: json       inbox cap by plan name, JSON object (`none` included)
  ARGV[6] window: number   creation window (ms): 7 days
  ARGV[7] lineId: string   journal line id
  ARGV[8] lineJson: json   journal line JSON
  ARGV[9] lineRefs: json   journal refs JSON array
  Returns { ok: true }
  Refuses unauthorized (space gone) | domain_not_allowed (domain removed meanwhile) | domain_not_verified
    | domain_suspended | payment_required | inbox_limit { inbox_count } | inbox_creation_limit { retry_after_seconds }
  Events: none; journal line inbox.created.
]]
--- @include "refuse"
--- @include "appendJournal"
--- @include "replayedLine"
if replayedLine(KEYS[6], ARGV[7]) then return cjson.encode({ ok = true }) end
if redis.call('EXISTS', KEYS[1]) == 0 then return refuse('unauthorized') end
local own = ARGV[4] == '0'
if own then
  local status = redis.call('HGET', KEYS[5], 'status')
  if not status then return refuse('domain_not_allowed') end
  if status == 'pending' then return refuse('domain_not_verified') end
  if status == 'suspended' then return refuse('domain_suspended') end
end
local plan = redis.call('HGET', KEYS[1], 'plan') or 'none'
local caps = cjson.decode(ARGV[5])
local cap = tonumber(caps[plan] or caps['none'])
local live = redis.call('ZCARD', KEYS[2])
if live >= cap then
  -- Without a plan the first inbox is free; a second one asks for a plan rather than a bigger one.
  if caps[plan] == nil or plan == 'none' then return refuse('payment_required') end
  return refuse('inbox_limit', { inbox_count = live })
end
local now = tonumber(ARGV[3])
local window = tonumber(ARGV[6])
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - window)
if redis.call('ZCARD', KEYS[3]) >= 2 * cap then
  local oldest = redis.call('ZRANGE', KEYS[3], 0, 0, 'WITHSCORES')
  local wait = math.ceil((tonumber(oldest[2]) + window - now) / 1000)
  return refuse('inbox_creation_limit', { retry_after_seconds = math.max(wait, 1) })
end
for field, value in pairs(cjson.decode(ARGV[2])) do redis.call('HSET', KEYS[4], field, value) end
redis.call('ZADD', KEYS[2], 0, ARGV[1])
redis.call('ZADD', KEYS[3], now, ARGV[1])
redis.call('PEXPIRE', KEYS[3], window)
if own then redis.call('HINCRBY', KEYS[5], 'live_inboxes', 1) end
appendJournal(KEYS[6], KEYS[7], ARGV[7], ARGV[8], ARGV[9])
return cjson.encode({ ok = true })
