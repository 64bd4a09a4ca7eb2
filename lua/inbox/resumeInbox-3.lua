--[[
  Resumes a suspended inbox (operator command `mailbox admin resume-inbox`): sending starts again.
  KEYS[1] inbox         hash of the inbox's fields
  KEYS[2] journal       hash line id -> line JSON
  KEYS[3] journalIndex  hash: the index lists of line id bodies (journalIndexAdd)
  ARGV[1] nowIso: string  now (ISO 8601)
  ARGV[2] lineId: string  journal line id
  ARGV[3] lineJson: json  journal line JSON
  ARGV[4] lineRefs: json  journal refs JSON array
  Returns { ok: true }
  Refuses not_found (absent or deleted) | inbox_not_suspended
  Events: none; journal line inbox.resumed.
]]
--- @include "refuse"
--- @include "appendJournal"
--- @include "replayedLine"
if replayedLine(KEYS[2], ARGV[2]) then return cjson.encode({ ok = true }) end
local status = redis.call('HGET', KEYS[1], 'status')
if not status or status == 'deleted' then return refuse('not_found') end
if status ~= 'suspended' then return refuse('inbox_not_suspended') end
redis.call('HSET', KEYS[1], 'status', 'active', 'status_changed_at', ARGV[1], 'status_reason', '',
  'review', 'none', 'review_requested_at', '', 'review_message', '')
appendJournal(KEYS[2], KEYS[3], ARGV[2], ARGV[3], ARGV[4])
return cjson.encode({ ok = true })
