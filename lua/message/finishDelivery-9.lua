--[[
  Records the outcome of one delivery attempt. Only the attempt that holds the message may write it:
  a worker whose lease expired (the message was taken again) writes nothing.
  KEYS[1] message       hash of the message
  KEYS[2] sending       sorted set of messages being delivered, by lease end (ms)
  KEYS[3] inbox         hash of the sending inbox (its `queued` counter)
  KEYS[4] inboxQueue    sorted set of the inbox's queued message ids by departure (ms)
  KEYS[5] queue         sorted set of the space's queued message ids by departure (ms)
  KEYS[6] inboxSlots    hash of departures per day (`sent:<day>` counts the sent ones, `bounced:<day>` the
                        recipients refused as unknown: the circuit breaker's hard bounces)
  KEYS[7] events        stream of the space's events
  KEYS[8] journal       hash line id -> line JSON
  KEYS[9] journalIndex  hash: the index lists of line id bodies (journalIndexAdd)
  ARGV[1] messageId: string   message id
  ARGV[2] attempt: number     attempt number the caller holds
  ARGV[3] outcome: 'sent' | 'delivered' | 'retry' | 'failed' | 'rejected'  the attempt's outcome
  ARGV[4] statusCode: string  status code ('' on success)
  ARGV[5] nowIso: string      now, ISO 8601
  ARGV[6] retryAt: number     retry departure (ms), for `retry`
  ARGV[7] today: string       Paris day of now (the sent counter)
  ARGV[8] events: json        JSON array of packed events (actors/events.ts prepareEvent) to append
  ARGV[9] lineId: string      journal line id ('' for none)
  ARGV[10] lineJson: json     journal line JSON
  ARGV[11] lineRefs: json     journal refs JSON array
  Returns { ok: true, status: string } | { stale: true }
  Events: mail.message.sent, mail.message.delivered, mail.message.failed or mail.message.rejected (given).
]]
--- @include "appendJournal"
--- @include "appendEvent"
--- @include "replayedLine"
if replayedLine(KEYS[8], ARGV[9]) then return cjson.encode({ ok = true, status = redis.call('HGET', KEYS[1], 'status') }) end
local id, outcome = ARGV[1], ARGV[3]
local current = redis.call('HMGET', KEYS[1], 'status', 'attempts')
if current[1] ~= 'sending' or current[2] ~= ARGV[2] then return cjson.encode({ stale = true }) end
redis.call('ZREM', KEYS[2], id)

local status = outcome
if outcome == 'retry' then
  status = 'queued'
  local at = tonumber(ARGV[6])
  redis.call('HSET', KEYS[1], 'status', status, 'status_code', ARGV[4], 'slot', at)
  redis.call('ZADD', KEYS[4], at, id)
  redis.call('ZADD', KEYS[5], at, id)
  redis.call('HINCRBY', KEYS[3], 'queued', 1)
elseif outcome == 'sent' or outcome == 'delivered' then
  redis.call('HSET', KEYS[1], 'status', status, 'status_code', '', 'sent_at', ARGV[5])
  redis.call('HINCRBY', KEYS[6], 'sent:' .. ARGV[7], 1)
else
  redis.call('HSET', KEYS[1], 'status', status, 'status_code', ARGV[4])
  if outcome == 'rejected' and ARGV[4] == 'recipient_unknown' then redis.call('HINCRBY', KEYS[6], 'bounced:' .. ARGV[7], 1) end
end
for _, event in ipairs(cjson.decode(ARGV[8])) do appendEvent(KEYS[7], event) end
if ARGV[9] ~= '' then appendJournal(KEYS[8], KEYS[9], ARGV[9], ARGV[10], ARGV[11]) end
return cjson.encode({ ok = true, status = status })
