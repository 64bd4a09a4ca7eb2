--[[
  Records the human's request to resume a suspended inbox (request_inbox_review): `suspension.review`
  becomes `requested`. Asked again while pending: nothing changes, the first date stays.
  KEYS[1] inbox         hash of the inbox's fields
  KEYS[2] journal       hash line id -> line JSON
  KEYS[3] journalIndex  hash: the index lists of line id bodies (journalIndexAdd)
  ARGV[1] nowIso: string   now (ISO 8601)
  ARGV[2] message: string  the requester's message ('' if none)
  ARGV[3] lineId: string   journal line id
  ARGV[4] lineJson: json   journal line JSON
  ARGV[5] lineRefs: json   journal refs JSON array
  Returns { ok: true, changed: boolean }
  Refuses not_found (absent or deleted) | inbox_not_suspended
  Events: none; journal line inbox.review_requested.
]]
--- @include "refuse"
--- @include "appendJournal"
--- @include "replayedLine"
if replayedLine(KEYS[2], ARGV[3]) then return cjson.encode({ ok = true, changed = true }) end
local status = redis.call('HGET', KEYS[1], 'status')
if not status or status == 'deleted' then return refuse('not_found') end
if status ~= 'suspended' then return refuse('inbox_not_suspended') end
if redis.call('HGET', KEYS[1], 'review') == 'requested' then return cjson.encode({ ok = true, changed = false }) end
redis.call('HSET', KEYS[1], 'review', 'requested', 'review_requested_at', ARGV[1], 'review_message', ARGV[2])
appendJournal(KEYS[2], KEYS[3], ARGV[3], ARGV[4], ARGV[5])
return cjson.encode({ ok = true, changed = true })
