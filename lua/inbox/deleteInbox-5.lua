--[[
  Deletes an inbox: it leaves the live set (its address claim is then marked or released by the
  caller), its fields stay with status `deleted` so its history remains readable.
  KEYS[1] inbox         hash of the inbox's fields
  KEYS[2] inboxes       sorted set of live inbox ids
  KEYS[3] domain        hash of the space's own domain the inbox lives on (not touched for a common-domain inbox)
  KEYS[4] journal       hash line id -> line JSON
  KEYS[5] journalIndex  hash: the index lists of line id bodies (journalIndexAdd)
  ARGV[1] inboxId: string  inbox id
  ARGV[2] nowIso: string   now (ISO 8601)
  ARGV[3] lineId: string   journal line id
  ARGV[4] lineJson: json   journal line JSON
  ARGV[5] lineRefs: json   journal refs JSON array
  Returns { ok: true }
  Refuses not_found (absent or already deleted) | inbox_suspended
  Events: none; journal line inbox.deleted.
]]
--- @include "refuse"
--- @include "appendJournal"
--- @include "replayedLine"
if replayedLine(KEYS[4], ARGV[3]) then return cjson.encode({ ok = true }) end
local status = redis.call('HGET', KEYS[1], 'status')
if not status or status == 'deleted' then return refuse('not_found') end
if status == 'suspended' then return refuse('inbox_suspended') end
redis.call('HSET', KEYS[1], 'status', 'deleted', 'status_changed_at', ARGV[2], 'status_reason', '', 'deleted_at', ARGV[2])
redis.call('ZREM', KEYS[2], ARGV[1])
if redis.call('HGET', KEYS[1], 'shared') == '0' then redis.call('HINCRBY', KEYS[3], 'live_inboxes', -1) end
appendJournal(KEYS[4], KEYS[5], ARGV[3], ARGV[4], ARGV[5])
return cjson.encode({ ok = true })
