--[[
  Records a delivery status notification (RFC 3464) for an outbound message: the message becomes
  `bounced` with its stable status code, and a hard bounce (5.x.x) counts in the inbox's daily figures
  that the circuit breaker judges. A message bounced already changes nothing (a DSN sent twice).
  KEYS[1] message       hash of the bounced message (outbound)
  KEYS[2] inboxSlots    hash of the inbox's daily figures (`bounced:<day>` counts hard bounces)
  KEYS[3] events        stream of the space's events
  KEYS[4] journal       hash line id -> line JSON
  KEYS[5] journalIndex  hash: the index lists of line id bodies (journalIndexAdd)
  ARGV[1] status code (src/mail/delivery-codes.ts)
  ARGV[2] '1' for a hard bounce (5.x.x), '0' otherwise
  ARGV[3] Paris day of now (YYYY-MM-DD)
  ARGV[4] journal line id
  ARGV[5] journal line JSON (message.bounced)
  ARGV[6] journal refs JSON array
  ARGV[7] packed event (actors/events.ts prepareEvent) (mail.message.bounced)
  Returns {"changed":true|false} | {"error":"not_found"} (no such outbound message).
  Events: mail.message.bounced; journal line message.bounced (only when changed).
]]
--- @include "refuse"
--- @include "appendJournal"
--- @include "appendEvent"
--- @include "replayedLine"
--- @include "outboundStatus"
if replayedLine(KEYS[4], ARGV[4]) then return cjson.encode({ changed = true }) end
local status = outboundStatus(KEYS[1])
if not status then return refuse('not_found') end
if status == 'bounced' then return cjson.encode({ changed = false }) end
redis.call('HSET', KEYS[1], 'status', 'bounced', 'status_code', ARGV[1])
if ARGV[2] == '1' then redis.call('HINCRBY', KEYS[2], 'bounced:' .. ARGV[3], 1) end
appendJournal(KEYS[4], KEYS[5], ARGV[4], ARGV[5], ARGV[6])
appendEvent(KEYS[3], ARGV[7])
return cjson.encode({ changed = true })
