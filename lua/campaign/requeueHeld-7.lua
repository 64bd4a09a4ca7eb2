--[[
  Puts a held message of a running campaign back in its inbox's queue at a new departure slot
  (window, warm-up quota of the day, spacing), as createOutbound would.
  KEYS[1] message      hash of the message
  KEYS[2] campaign     hash of the campaign's fields (status)
  KEYS[3] held         sorted set of the campaign's held message ids
  KEYS[4] inbox        hash of the message's inbox (queued)
  KEYS[5] inboxQueue   sorted set of the inbox's queued message ids by departure (ms)
  KEYS[6] queue        sorted set of the space's queued message ids by departure (ms)
  KEYS[7] inboxSlots   hash of reserved departures per Paris day, and `last`
  ARGV[1] message id   ARGV[2] earliest departure (ms)   ARGV[3] spacing (ms)
  ARGV[4] intervals "<day> <start> <end> <quota>,..." (lua/includes/findSlot.lua)
  Returns {"slot":ms,"wake":bool} | {"slot":null} (not held, campaign not running, or no slot: stays held).
  Events: none; no journal line.
]]
--- @include "findSlot"
--- @include "enterQueue"
if redis.call('HGET', KEYS[2], 'status') ~= 'running' or not redis.call('ZSCORE', KEYS[3], ARGV[1]) then
  return cjson.encode({ slot = cjson.null })
end
if redis.call('HGET', KEYS[1], 'status') ~= 'queued' then
  redis.call('ZREM', KEYS[3], ARGV[1])
  return cjson.encode({ slot = cjson.null })
end
local slot, day = findSlot(KEYS[7], ARGV[4], tonumber(ARGV[2]), tonumber(ARGV[3]))
if not slot then return cjson.encode({ slot = cjson.null }) end
local wake = enterQueue({ queue = KEYS[6], inboxQueue = KEYS[5], slots = KEYS[7], inbox = KEYS[4] }, ARGV[1], slot, day)
redis.call('HSET', KEYS[1], 'slot', string.format('%d', slot))
redis.call('ZREM', KEYS[3], ARGV[1])
return cjson.encode({ slot = slot, wake = wake })
