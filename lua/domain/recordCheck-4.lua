--[[
  Records a DNS check of a domain (verify_domain or the scheduled recheck) and decides its state:
  all required records good -> `verified` (from pending, or restored from suspended); a required record
  gone from a verified domain -> `suspended` (its inboxes stop sending: the send path reads `status`).
  KEYS[1] domain        hash of the domain's fields
  KEYS[2] events        stream of the space's events
  KEYS[3] journal       hash line id -> line JSON
  KEYS[4] journalIndex  hash: the index lists of line id bodies (journalIndexAdd)
  ARGV[1] domainId: string         domain id (the check is void if the domain was removed, or removed and added again, meanwhile)
  ARGV[2] nowIso: string           now (ISO 8601)
  ARGV[3] checks: json             checks JSON (state and value seen per record)
  ARGV[4] found: flag              every required record is found
  ARGV[5] reason: 'records_missing' | ''  why it is suspended (src/texts.ts REASONS), '' when every required record is found
  ARGV[6] asked: flag              a check asked by a tool: journalled even when nothing changes
  ARGV[7] lineId: string           journal line id
  ARGV[8] lineJson: json           journal line JSON (kind `domain.checked`, set here to `domain.verified` or `domain.suspended` on a transition)
  ARGV[9] lineRefs: json           journal refs JSON array
  ARGV[10] verifiedEvent: string   packed event mail.domain.verified (from pending), '' when records are missing
  ARGV[11] restoredEvent: string   packed event mail.domain.verified with data.restored (from suspended), '' when records are missing
  ARGV[12] suspendedEvent: string  packed event mail.domain.suspended, '' when every required record is found
  Returns { status: 'pending' | 'verified' | 'suspended', previous: 'pending' | 'verified' | 'suspended' } // after the check, and before
  Refuses not_found
  Events: mail.domain.verified (pending or suspended -> verified, data.restored), mail.domain.suspended;
    journal line domain.verified, domain.suspended, or domain.checked (manual check without change).
]]
--- @include "refuse"
--- @include "appendJournal"
--- @include "appendEvent"
--- @include "replayedLine"
local replayed = replayedLine(KEYS[3], ARGV[7])
if replayed then
  local now = redis.call('HGET', KEYS[1], 'status')
  return cjson.encode({ status = now, previous = replayed.data.previous or now })
end
if redis.call('HGET', KEYS[1], 'id') ~= ARGV[1] then return refuse('not_found') end
local previous = redis.call('HGET', KEYS[1], 'status')
local good = ARGV[4] == '1'
redis.call('HSET', KEYS[1], 'checks', ARGV[3], 'last_checked_at', ARGV[2])
local line = cjson.decode(ARGV[8])
local event
local status = previous
if good and previous ~= 'verified' then
  status = 'verified'
  redis.call('HSET', KEYS[1], 'status', status, 'status_reason', '', 'verified_at', ARGV[2])
  line.kind = 'domain.verified'
  line.data.restored = previous == 'suspended'
  event = previous == 'suspended' and ARGV[11] or ARGV[10]
elseif not good and previous ~= 'pending' then
  -- A suspended domain still missing records keeps the latest reason.
  status = 'suspended'
  redis.call('HSET', KEYS[1], 'status', status, 'status_reason', ARGV[5])
  line.kind = 'domain.suspended'
  event = ARGV[12]
end
if status ~= previous then
  line.data.previous = previous
  appendJournal(KEYS[3], KEYS[4], ARGV[7], cjson.encode(line), ARGV[9])
  appendEvent(KEYS[2], event)
elseif ARGV[6] == '1' then
  appendJournal(KEYS[3], KEYS[4], ARGV[7], ARGV[8], ARGV[9])
end
return cjson.encode({ status = status, previous = previous })
