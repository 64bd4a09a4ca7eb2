--[[
  Counts a complaint (ARF, RFC 5965) against the message it names, once: the inbox's daily figure
  `complained:<day>` that the circuit breaker judges. The suppression and its event are written next by
  lua/suppression/addSuppression (another behaviour of the same space).
  KEYS[1] message     hash of the message complained about (outbound)
  KEYS[2] inboxSlots  hash of the inbox's daily figures
  ARGV[1] today: string   Paris day of now (YYYY-MM-DD)
  ARGV[2] nowIso: string  now, ISO 8601
  Returns { counted: boolean }
  Refuses not_found (no such outbound message)
  Events: none (the suppression writes mail.contact.complained).
]]
--- @include "refuse"
--- @include "outboundStatus"
if not outboundStatus(KEYS[1]) then return refuse('not_found') end
local complainedAt = redis.call('HGET', KEYS[1], 'complained_at')
if complainedAt and complainedAt ~= '' then return cjson.encode({ counted = false }) end
redis.call('HSET', KEYS[1], 'complained_at', ARGV[2])
redis.call('HINCRBY', KEYS[2], 'complained:' .. ARGV[1], 1)
return cjson.encode({ counted = true })
