--[[
  Suspends an active inbox (the circuit breaker): it stops sending, keeps receiving, and only an
  operator resumes it. Already suspended: nothing changes.
  KEYS[1] inbox         hash of the inbox's fields
  KEYS[2] events        stream of the space's events
  KEYS[3] journal       hash line id -> line JSON
  KEYS[4] journalIndex  hash: the index lists of line id bodies (journalIndexAdd)
  ARGV[1] nowIso: string  now (ISO 8601)
  ARGV[2] reason: string  why, a code of src/texts.ts REASONS (bounce_rate, complaint_rate): the inbox's status_reason
  ARGV[3] lineId: string  journal line id
  ARGV[4] lineJson: json  journal line JSON
  ARGV[5] lineRefs: json  journal refs JSON array
  ARGV[6] event: string   packed event (actors/events.ts prepareEvent) (mail.inbox.suspended)
  Returns { ok: true, changed: boolean }
  Refuses not_found (absent or deleted)
  Events: mail.inbox.suspended; journal line inbox.suspended.
]]
--- @include "refuse"
--- @include "appendJournal"
--- @include "appendEvent"
--- @include "replayedLine"
if replayedLine(KEYS[3], ARGV[3]) then return cjson.encode({ ok = true, changed = true }) end
local status = redis.call('HGET', KEYS[1], 'status')
if not status or status == 'deleted' then return refuse('not_found') end
if status == 'suspended' then return cjson.encode({ ok = true, changed = false }) end
redis.call('HSET', KEYS[1], 'status', 'suspended', 'status_changed_at', ARGV[1], 'status_reason', ARGV[2],
  'review', 'none', 'review_requested_at', '', 'review_message', '')
appendJournal(KEYS[3], KEYS[4], ARGV[3], ARGV[4], ARGV[5])
appendEvent(KEYS[2], ARGV[6])
return cjson.encode({ ok = true, changed = true })
