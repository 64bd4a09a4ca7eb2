--[[
  Counts a complaint (ARF, RFC 5965) against the message it names, once: the inbox's daily figure
  `complained:<day>` that the circuit breaker judges. The suppression and its event are written next by
  lua/suppression/addSuppression (another behaviour of the same space).
  KEYS[1] message     hash of the message complained about (outbound)
  KEYS[2] inboxSlots  hash of the inbox's daily figures
  ARGV[1] Paris day of now (YYYY-MM-DD)
  ARGV[2] now, ISO 8601
  Returns {"counted":true|false} | {"error":"not_found"} (no such outbound message).
  Events: none (the suppression writes mail.contact.complained).
]]
--- @include "refuse"
-- No status: no such message; `received`: an inbound one (the hash keeps no direction, its status tells it).
local current = redis.call('HMGET', KEYS[1], 'status', 'complained_at')
if not current[1] or current[1] == 'received' then return refuse('not_found') end
if current[2] and current[2] ~= '' then return cjson.encode({ counted = false }) end
redis.call('HSET', KEYS[1], 'complained_at', ARGV[2])
redis.call('HINCRBY', KEYS[2], 'complained:' .. ARGV[1], 1)
return cjson.encode({ counted = true })
