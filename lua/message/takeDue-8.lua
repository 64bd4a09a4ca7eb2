--[[
  The delivery worker's re-check before a departure: the inbox's next queued message leaves only if
  it is due, the inbox is active, its own domain verified, (unless it answers a correspondent) the
  sending window is open, and today's departures have not reached today's quota. Taken, it moves to
  `sending` under a lease: a worker that dies mid-delivery lets the lease expire and the message is
  tried again (at-least-once, docs/operations.md). A recipient put on the space's suppression list since
  the message was queued (unsubscribed, complained, bounced, blocked) is told with the taken message:
  the caller records it `rejected` without sending it.
  The quota check is the last line of defence behind the slot reservation (lua/includes/findSlot.lua, commitSlot.lua):
  should reservations ever let more than a day's quota be due, the excess waits for the next day's window.
  It counts finished departures (`sent:<day>`, written by finishDelivery), not attempts in flight.
  KEYS[1] inbox        hash of the sending inbox
  KEYS[2] domain       hash of its own domain (absent on the common domain)
  KEYS[3] inboxQueue   sorted set of the inbox's queued message ids by departure (ms)
  KEYS[4] queue        sorted set of the space's queued message ids by departure (ms)
  KEYS[5] sending      sorted set of messages being delivered, by lease end (ms)
  KEYS[6] message      hash of the message at the head of the inbox's queue
  KEYS[7] suppressions hash of the space's suppressed addresses and `@domain`s -> entry JSON
  KEYS[8] inboxSlots   hash of the inbox's departures per day: `sent:<day>` counts the sent ones
  ARGV[1] messageId: string     message id (the head the caller read)
  ARGV[2] now: number           now (ms)
  ARGV[3] leaseEnd: number      lease end (ms)
  ARGV[4] windowOpen: flag      the sending window is open now
  ARGV[5] nextOpening: number   next opening of the window (ms), when it is closed
  ARGV[6] heldWait: number      how long to wait before looking again at a held inbox (ms)
  ARGV[7] today: string         today, the Paris day of now (YYYY-MM-DD)
  ARGV[8] quota: number         today's quota of departures (the inbox's warm-up step under its space's plan)
  ARGV[9] laterOpening: number  the window's first opening on a later day (ms): when a message held by the quota looks again
  Returns { taken: HashFields, attempt: number, suppressed?: string } // suppressed: the blocking entry's reason
    | { wait: number } // until then (ms): not due, window closed, held, today's quota reached
    | { moved: true } // the head changed: read it again
    | { dropped: true } // its inbox is gone
  Events: none (the outcome writes them).
]]
--- @include "hashToTable"
--- @include "suppressionEntry"
--- @include "countDown"
local id, now = ARGV[1], tonumber(ARGV[2])
local slot = redis.call('ZSCORE', KEYS[3], id)
if not slot then return cjson.encode({ moved = true }) end
if tonumber(slot) > now then return cjson.encode({ wait = tonumber(slot) }) end

local inbox = hashToTable(KEYS[1])
if inbox.status == 'deleted' or not inbox.id then
  redis.call('ZREM', KEYS[3], id)
  redis.call('ZREM', KEYS[4], id)
  redis.call('HSET', KEYS[6], 'status', 'cancelled')
  return cjson.encode({ dropped = true })
end
local held = inbox.status ~= 'active'
if inbox.shared ~= '1' and redis.call('HGET', KEYS[2], 'status') ~= 'verified' then held = true end
if held then return cjson.encode({ wait = now + tonumber(ARGV[6]) }) end
if redis.call('HGET', KEYS[6], 'any_time') ~= '1' and ARGV[4] ~= '1' then
  return cjson.encode({ wait = tonumber(ARGV[5]) })
end
if tonumber(redis.call('HGET', KEYS[8], 'sent:' .. ARGV[7]) or '0') >= tonumber(ARGV[8]) then
  return cjson.encode({ wait = tonumber(ARGV[9]) })
end

redis.call('ZREM', KEYS[3], id)
redis.call('ZREM', KEYS[4], id)
redis.call('ZADD', KEYS[5], tonumber(ARGV[3]), id)
countDown(KEYS[1], 'queued')
local attempt = redis.call('HINCRBY', KEYS[6], 'attempts', 1)
redis.call('HSET', KEYS[6], 'status', 'sending')
local taken = hashToTable(KEYS[6])
-- A test send skips the list, as when it was created.
local entry = taken.test ~= '1' and suppressionEntry(KEYS[7], taken.to, '@' .. string.match(taken.to, '[^@]*$'))
return cjson.encode({ taken = taken, attempt = attempt, suppressed = entry and entry.reason or nil })
