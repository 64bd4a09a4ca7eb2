--[[
  Puts a held message of a running campaign back in its inbox's queue at a new departure slot
  (window, warm-up quota of the day, spacing), as createOutbound would; its inbox's `queued` counted
  it all along (lua/campaign/holdMessage).
  KEYS[1] message      hash of the message
  KEYS[2] campaign     hash of the campaign's fields (status)
  KEYS[3] held         sorted set of the campaign's held message ids
  KEYS[4] inboxQueue   sorted set of the inbox's queued message ids by departure (ms)
  KEYS[5] queue        sorted set of the space's queued message ids by departure (ms)
  KEYS[6] inboxSlots   hash of reserved departures per Paris day, and `last`
  ARGV[1] messageId: string  message id
  ARGV[2] earliest: number   earliest departure (ms)
  ARGV[3] spacing: number    spacing (ms)
  ARGV[4] intervals: string  "<day> <start> <end> <quota>,..." (lua/includes/findSlot.lua)
  Returns { slot: number, wake: boolean }
    | { slot: null } // not held, campaign not running, or no slot: stays held
  Events: none; no journal line.
]]
--- @include "findSlot"
--- @include "commitSlot"
if redis.call('HGET', KEYS[2], 'status') ~= 'running' or not redis.call('ZSCORE', KEYS[3], ARGV[1]) then
  return cjson.encode({ slot = cjson.null })
end
if redis.call('HGET', KEYS[1], 'status') ~= 'queued' then
  redis.call('ZREM', KEYS[3], ARGV[1])
  return cjson.encode({ slot = cjson.null })
end
local slot, day, reserved = findSlot(KEYS[6], ARGV[4], tonumber(ARGV[2]), tonumber(ARGV[3]), false)
if not slot then return cjson.encode({ slot = cjson.null }) end
commitSlot(KEYS[6], slot, day, false, reserved)
local score = string.format('%d', slot)
redis.call('ZADD', KEYS[4], score, ARGV[1])
redis.call('ZADD', KEYS[5], score, ARGV[1])
redis.call('HSET', KEYS[1], 'slot', score)
redis.call('ZREM', KEYS[3], ARGV[1])
return cjson.encode({ slot = slot, wake = redis.call('ZRANGE', KEYS[4], '0', '0')[1] == ARGV[1] })
