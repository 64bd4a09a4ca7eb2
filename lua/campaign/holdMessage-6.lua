--[[
  Holds a queued message of a paused campaign: it leaves its inbox's queue and gives back its day's
  reservation and, when it was the latest, its spacing (releaseLast), so nothing of the campaign leaves
  while paused and single sends take its place. It stays `queued`, without a slot, in the campaign's
  held set until the campaign runs again (lua/campaign/requeueHeld), and still counts in its inbox's
  `queued` (a cancel_message of it takes it off as of any queued message; the feeder's room sees it).
  A message no longer queued (taken by a delivery meanwhile, cancelled) or a campaign running again
  is left alone.
  KEYS[1] message      hash of the message
  KEYS[2] campaign     hash of the campaign's fields (status)
  KEYS[3] held         sorted set of the campaign's held message ids
  KEYS[4] inboxQueue   sorted set of the inbox's queued message ids by departure (ms)
  KEYS[5] queue        sorted set of the space's queued message ids by departure (ms)
  KEYS[6] inboxSlots   hash of reserved departures per Paris day, and `last`
  ARGV[1] messageId: string  message id
  ARGV[2] day: string        the Paris day of its slot
  ARGV[3] spacing: number    spacing (ms, without jitter)
  Returns { held: boolean }
  Events: none (the pause told it); no journal line.
]]
--- @include "countDown"
--- @include "releaseLast"
if redis.call('HGET', KEYS[2], 'status') ~= 'paused' then return cjson.encode({ held = false }) end
local fields = redis.call('HMGET', KEYS[1], 'status', 'slot', 'attempts')
if fields[1] ~= 'queued' or not redis.call('ZSCORE', KEYS[4], ARGV[1]) then return cjson.encode({ held = false }) end
redis.call('ZREM', KEYS[4], ARGV[1])
redis.call('ZREM', KEYS[5], ARGV[1])
if (fields[3] or '0') == '0' then countDown(KEYS[6], ARGV[2]) end
releaseLast(KEYS[6], KEYS[4], tonumber(fields[2]), tonumber(ARGV[3]))
redis.call('HSET', KEYS[1], 'slot', '')
redis.call('ZADD', KEYS[3], '0', ARGV[1])
return cjson.encode({ held = true })
