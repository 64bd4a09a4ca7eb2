--[[
  Records a delivery status notification (RFC 3464) for an outbound message: the message becomes
  `bounced` with its stable status code, and a hard bounce (5.x.x) counts in the inbox's daily figures
  that the circuit breaker judges. A message bounced already changes nothing (a DSN sent twice). The
  bounce of a copy (cc, bcc) is counted and told, the message keeps its status (its `to` got it).
  KEYS[1] message       hash of the bounced message (outbound)
  KEYS[2] inboxSlots    hash of the inbox's daily figures (`bounced:<day>` counts hard bounces)
  KEYS[3] events        stream of the space's events
  KEYS[4] journal       hash line id -> line JSON
  KEYS[5] journalIndex  hash: the index lists of line id bodies (journalIndexAdd)
  ARGV[1] statusCode: string  status code (src/mail/delivery-codes.ts)
  ARGV[2] hard: flag          a hard bounce (5.x.x)
  ARGV[3] copy: flag          the bounced recipient is a copy (cc, bcc), not `to`
  ARGV[4] today: string       Paris day of now (YYYY-MM-DD)
  ARGV[5] lineId: string      journal line id
  ARGV[6] lineJson: json      journal line JSON (message.bounced)
  ARGV[7] lineRefs: json      journal refs JSON array
  ARGV[8] event: string       packed event (actors/events.ts prepareEvent) (mail.message.bounced)
  Returns { changed: boolean }
  Refuses not_found (no such outbound message)
  Events: mail.message.bounced; journal line message.bounced (only when changed).
]]
--- @include "refuse"
--- @include "appendJournal"
--- @include "appendEvent"
--- @include "replayedLine"
--- @include "outboundStatus"
if replayedLine(KEYS[4], ARGV[5]) then return cjson.encode({ changed = true }) end
local status = outboundStatus(KEYS[1])
if not status then return refuse('not_found') end
local copy = ARGV[3] == '1'
if status == 'bounced' and not copy then return cjson.encode({ changed = false }) end
if not copy then redis.call('HSET', KEYS[1], 'status', 'bounced', 'status_code', ARGV[1]) end
if ARGV[2] == '1' then redis.call('HINCRBY', KEYS[2], 'bounced:' .. ARGV[4], 1) end
appendJournal(KEYS[4], KEYS[5], ARGV[5], ARGV[6], ARGV[7])
appendEvent(KEYS[3], ARGV[8])
return cjson.encode({ changed = true })
