--[[
  Approves a draft (approve_message): the revision the human read must still be the current one; the
  inbox, its domain, the plan and the suppression list are judged again now (they may have changed
  since the draft was written); then the draft leaves the draft sets and takes a departure slot exactly
  as a new message would (window, warm-up quota of the day, spacing). The queue cap, the key's daily cap,
  the duplicate rule and the loop guard counted the draft when it was created: not again.
  KEYS[1] space            hash of the space's fields (plan)
  KEYS[2] inbox            hash of the sending inbox (status, shared, drafts, queued)
  KEYS[3] domain           hash of the inbox's own domain (status); absent for the common domain
  KEYS[4] message          hash of the draft
  KEYS[5] thread           hash of its thread (correspondent_wrote: a reply may leave outside the window)
  KEYS[6] drafts           sorted set of the space's draft ids
  KEYS[7] inboxDrafts      sorted set of the inbox's draft ids
  KEYS[8] queue            sorted set of the space's queued message ids by departure (ms)
  KEYS[9] inboxQueue       sorted set of the inbox's queued message ids by departure (ms)
  KEYS[10] inboxSlots      hash of reserved departures per Paris day, and `last`
  KEYS[11] suppressions    hash of suppressed values (address, @domain)
  KEYS[12] events          stream of the space's events
  KEYS[13] journal         hash line id -> line JSON
  KEYS[14] journalIndex    hash: the index lists of line id bodies (journalIndexAdd)
  ARGV[1] request: json      request JSON: revision (the one approved), today (Paris day), third_party, recipients (every address, space-separated),
                             intervals and reply_intervals ("<day> <start> <end> <quota>,..." strings: lua/includes/findSlot.lua),
                             earliest, spacing_ms
  ARGV[2] lineId: string     journal line id
  ARGV[3] lineJson: json     journal line JSON (draft.approved)
  ARGV[4] lineRefs: json     journal refs JSON array
  ARGV[5] event: string      packed event (actors/events.ts prepareEvent) (mail.message.queued)
  ARGV[6] messageId: string  the message id (its hash does not hold it)
  Returns { slot: number, wake: boolean, message: HashFields, inbox: InboxFigures }
  Refuses not_found | not_draft | revision_mismatch { revision } | inbox_suspended { reason }
    | domain_not_verified | domain_suspended | payment_required | recipient_suppressed { reason, recipient? }
    | queue_full { retry_after_seconds }
  Events: mail.message.queued; journal line draft.approved.
]]
--- @include "refuse"
--- @include "hashToTable"
--- @include "senderRefusal"
--- @include "planRefusal"
--- @include "suppressionRefusal"
--- @include "leaveWaiting"
--- @include "findSlot"
--- @include "enterQueue"
--- @include "inboxFigures"
--- @include "appendJournal"
--- @include "appendEvent"
--- @include "replayedLine"
local req = cjson.decode(ARGV[1])
local function answer(slot, wake)
  return cjson.encode({ slot = slot, wake = wake, message = hashToTable(KEYS[4]), inbox = inboxFigures(KEYS[2], KEYS[9], KEYS[10], req.today) })
end
local message = hashToTable(KEYS[4])
-- Run again for the same call: the draft is queued; answered from it, as the first run answered.
if replayedLine(KEYS[13], ARGV[2]) then
  return answer(tonumber(message.slot), redis.call('ZRANGE', KEYS[9], '0', '0')[1] == ARGV[6])
end
if not message.status then return refuse('not_found') end
if message.status ~= 'draft' then return refuse('not_draft') end
if message.revision ~= req.revision then return refuse('revision_mismatch', { revision = message.revision }) end

local refusal = senderRefusal(hashToTable(KEYS[2]), KEYS[3])
  or (req.third_party and planRefusal(KEYS[1]))
  or (message.test ~= '1' and suppressionRefusal(KEYS[11], req.recipients))
if refusal then return refusal end

local answering = redis.call('HGET', KEYS[5], 'correspondent_wrote') == '1'
local slot, day, reserved = findSlot(KEYS[10], answering and req.reply_intervals or req.intervals, req.earliest, req.spacing_ms, answering)
if not slot then return refuse('queue_full', { retry_after_seconds = 86400 }) end

local id = ARGV[6]
local lists = { drafts = KEYS[6], inboxDrafts = KEYS[7], queue = KEYS[8], inboxQueue = KEYS[9], slots = KEYS[10], inbox = KEYS[2] }
leaveWaiting(lists, id, 'draft', '')
local wake = enterQueue(lists, id, slot, day, answering, reserved)
redis.call('HSET', KEYS[4], 'status', 'queued', 'slot', slot, 'any_time', answering and '1' or '0')
appendJournal(KEYS[13], KEYS[14], ARGV[2], ARGV[3], ARGV[4])
appendEvent(KEYS[12], ARGV[5])
return answer(slot, wake)
