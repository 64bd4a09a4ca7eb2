--[[
  Creates an outbound message (send_email: a first message in a new thread; reply_to_thread: an answer
  in an existing one) and decides, atomically, every rule that depends on shared state: idempotency,
  inbox and domain status, the common-domain rule, plan, suppression, the 30-day duplicate rule, the
  loop guard, the key's daily cap, the inbox queue cap, and the departure slot (window, warm-up quota
  of the day, spacing; a reply to a correspondent who wrote leaves at any hour, ahead of first messages
  waiting for the window: findSlot's priority). N concurrent calls can never oversubscribe a quota, a cap or a queue. The
  message, draft or queued, enters the space's search index (indexMessage).
  The hot path of the service: arguments are positional strings and field lists, not JSON to decode;
  numbers reach redis.call as strings (Redis formats a Lua number with snprintf at every call); the
  reply carries only what the caller cannot know (BENCHMARKS.md, "Sending").
  KEYS[1] space            hash of the space's fields (plan)
  KEYS[2] inbox            hash of the sending inbox (status, shared, drafts, queued)
  KEYS[3] domain           hash of the inbox's own domain (status); absent for the common domain
  KEYS[4] inboxQueue       sorted set of the inbox's queued message ids by departure (ms)
  KEYS[5] inboxSlots       hash of reserved departures per day, and `last`
  KEYS[6] inboxRecipients  hash recipient -> "<thread id> <ms>" of the last first message (30-day rule);
                           "test <recipient>" -> thread id of the last test one (threading only)
  KEYS[7] queue            sorted set of the space's queued message ids by departure (ms)
  KEYS[8] drafts           sorted set of the space's draft ids
  KEYS[9] inboxDrafts      sorted set of the inbox's draft ids
  KEYS[10] keySent         hash key id -> messages created today (Paris day)
  KEYS[11] idempotency     string "<message id> <content hash>" for the given idempotency key
  KEYS[12] message         hash of the new message
  KEYS[13] thread          hash of the thread (new for a first message), its loop guard window included
  KEYS[14] threadMessages  sorted set of the thread's message ids
  KEYS[15] threads         sorted set of thread ids by last activity
  KEYS[16] suppressions    hash of suppressed values (address, @domain)
  KEYS[17] events          stream of the space's events
  KEYS[18] journal         hash line id -> line JSON
  KEYS[19] journalIndex    hash: the index lists of line id bodies (journalIndexAdd)
  KEYS[20] webhook         hash of the space's declared webhook (url): whether to wake its delivery
  KEYS[21] blobs           set of the SHA-256 (base64url) of the space's blobs that records point to
  KEYS[22] searchDocs      string of the search index's document records
  KEYS[23] searchPending   list of the search index's entries waiting for search/postPending (indexMessage)
  KEYS[24] searchThread    string: the thread's document numbers once past its hash's `docs` (indexMessage)
  ARGV[1] now: number                 now (ms)
  ARGV[2] nowIso: string              now, ISO 8601
  ARGV[3] today: string               today (Paris day)
  ARGV[4] mode: 'first' | 'reply'     a first message in a new thread, or a reply in an existing one
  ARGV[5] messageId: string           message id
  ARGV[6] threadId: string            thread id
  ARGV[7] keyId: string               the calling key's id
  ARGV[8] keyDailyCap: number         the key's daily cap (0: none)
  ARGV[9] to: string                  the recipient
  ARGV[10] recipients: string         every address of the message, space-separated, `to` first (cc and bcc after it)
  ARGV[11] thirdParty: flag           a recipient neither the space's human nor one of its inboxes
  ARGV[12] test: flag                 a test send
  ARGV[13] draft: flag                a draft (waits for approval)
  ARGV[14] contentHash: string        idempotency content hash ('' without a key)
  ARGV[15] idempotencyTtl: number     idempotency TTL (ms)
  ARGV[16] duplicateWindow: number    duplicate window (ms)
  ARGV[17] queueCap: number           queue cap
  ARGV[18] spacing: number            spacing (ms)
  ARGV[19] earliest: number           earliest departure (ms)
  ARGV[20] nextMidnight: number       next Paris midnight (ms)
  ARGV[21] loopMax: number            loop guard: most messages
  ARGV[22] loopWindow: number         loop guard window (ms)
  ARGV[23] dryRun: flag               a dry run: decides, writes nothing
  ARGV[24] intervals: string          "<day> <start> <end> <quota>,..." (lua/includes/findSlot.lua)
  ARGV[25] replyIntervals: string     the same for a reply to a correspondent who wrote (any hour)
  ARGV[26] lineId: string             journal line id
  ARGV[27] lineJson: json             journal line JSON (message.queued or draft.created)
  ARGV[28] lineRefs: json             journal refs JSON array
  ARGV[29] event: string              packed event (actors/events.ts prepareEvent) (mail.message.queued or mail.draft.created)
  ARGV[30] blobs: string              SHA-256 (base64url) of the message's attachments, already in the blob store, space-separated ('' none)
  ARGV[31 ..] message: counted pairs  the message's fields and values but status, revision and slot, written as they are,
                                      and any_time, written when '1'
  ARGV[..] thread: pairs              the new thread's fields and values (message_count 1) for a first message; for a reply
                                      the thread fields it changes (its snippet). Fields of a new message or thread at their
                                      default are left out (readers fill them in: actors/stored-records.ts)
  ARGV[#ARGV] indexed: string         the message's search entry: "<inbox id> <word> ..." (actors/search.ts indexing)
  Returns { status: 'queued' | 'draft', slot: number | null, wake: boolean, webhook: boolean, message_count: number,
            inbox: InboxFigures, pending: number | null }
    | { dry_run: true, status: 'queued' | 'draft', slot: number | null }
    | { replayed: true, message_id: string } // an idempotency key used for the same content
    | { history: true } // a reply to a thread in history (actors/history.ts): nothing written
  Refuses idempotency_conflict | not_found | inbox_suspended { reason } | domain_not_verified
    | domain_suspended | own_domain_required | payment_required | recipient_suppressed { reason, recipient? }
    | duplicate_recipient { thread_id } | thread_loop_guard { retry_after_seconds }
    | key_daily_cap { retry_after_seconds } | queue_full { retry_after_seconds }
  Events: mail.message.queued or mail.draft.created; journal line message.queued or draft.created.
]]
--- @include "idempotencyAnswer"
--- @include "refuse"
--- @include "senderRefusal"
--- @include "planRefusal"
--- @include "suppressionRefusal"
--- @include "duplicateRefusal"
--- @include "loopWindow"
--- @include "loopGuardRefusal"
--- @include "keyCapRefusal"
--- @include "findSlot"
--- @include "fileOutbound"
--- @include "enterQueue"
--- @include "enterDrafts"
--- @include "inboxFigures"
--- @include "appendJournal"
--- @include "appendEvent"
--- @include "webhookDeclared"
--- @include "replayedLine"
--- @include "indexMessage"
local nowText = ARGV[1]
local now = tonumber(nowText)
local first = ARGV[4] == 'first'
local id, threadId, keyId, to = ARGV[5], ARGV[6], ARGV[7], ARGV[9]
local thirdParty, test, draft = ARGV[11] == '1', ARGV[12] == '1', ARGV[13] == '1'
local idemHash = ARGV[14]

-- `pending`: the search entries waiting once this one joined them (nil: none joined).
local function answer(status, slot, wake, messageCount, known, pending)
  return cjson.encode({ status = status, slot = slot or cjson.null, wake = wake, webhook = webhookDeclared(KEYS[20]),
    message_count = messageCount, inbox = inboxFigures(KEYS[2], KEYS[4], KEYS[5], ARGV[3], known), pending = pending or cjson.null })
end

-- Run again for the same call: the message is made; answered from it, as the first run answered.
local replayed = replayedLine(KEYS[18], ARGV[26])
if replayed then
  local slot = tonumber(redis.call('HGET', KEYS[12], 'slot') or '')
  local wake = slot ~= nil and redis.call('ZRANGE', KEYS[4], '0', '0')[1] == id
  return answer(replayed.kind == 'draft.created' and 'draft' or 'queued', slot, wake, tonumber(redis.call('HGET', KEYS[13], 'message_count')))
end

local seen = idempotencyAnswer(KEYS[11], idemHash)
if seen then return seen end

local fields = redis.call('HMGET', KEYS[2], 'id', 'status', 'status_reason', 'shared', 'drafts', 'queued')
local inbox = { id = fields[1], status = fields[2], status_reason = fields[3], shared = fields[4] }
local thread = first and {} or redis.call('HMGET', KEYS[13], 'inbox_id', 'correspondent_wrote', 'loop_window')
-- A reply to a thread that went into history meanwhile (its hash gone, its row packed in the name
-- buckets): the caller brings it back and runs this again.
if not first and not thread[1] and redis.call('ZSCORE', KEYS[15], ARGV[6]) then return cjson.encode({ history = true }) end
local answering = thread[2] == '1'
local loopEntries = first and {} or loopWindow(thread[3], now - tonumber(ARGV[22]), nil)
-- The first refusal in this order wins; a check reads nothing once an earlier one refused.
local refusal = senderRefusal(inbox, KEYS[3])
  or (not first and thread[1] ~= inbox.id and refuse('not_found'))
  or (inbox.shared == '1' and thirdParty and not answering and refuse('own_domain_required'))
  or (thirdParty and not draft and planRefusal(KEYS[1]))
  or (not test and suppressionRefusal(KEYS[16], ARGV[10]))
  or (first and not test and duplicateRefusal(KEYS[6], to, now, tonumber(ARGV[16])))
  or (not first and loopGuardRefusal(loopEntries, now, tonumber(ARGV[21]), tonumber(ARGV[22])))
  or keyCapRefusal(KEYS[10], keyId, tonumber(ARGV[8]), now, tonumber(ARGV[20]))
  or (tonumber(fields[5] or '0') + tonumber(fields[6] or '0') >= tonumber(ARGV[17]) and refuse('queue_full', { retry_after_seconds = 3600 }))
if refusal then return refusal end

local slot, day, reserved
if not draft then
  slot, day, reserved = findSlot(KEYS[5], answering and ARGV[25] or ARGV[24], tonumber(ARGV[19]), tonumber(ARGV[18]), answering, 'sent:' .. ARGV[3])
  if not slot then return refuse('queue_full', { retry_after_seconds = 86400 }) end
end
local status = draft and 'draft' or 'queued'
if ARGV[23] == '1' then return cjson.encode({ dry_run = true, status = status, slot = slot or cjson.null }) end

local messageEnd = 31 + 2 * tonumber(ARGV[31])
redis.call('HSET', KEYS[12], 'status', status, 'revision', '1', 'slot', slot and string.format('%d', slot) or '', unpack(ARGV, 32, messageEnd))
if answering then redis.call('HSET', KEYS[12], 'any_time', '1') end
for sha in string.gmatch(ARGV[30], '%S+') do redis.call('SADD', KEYS[21], sha) end
local posting, pending = indexMessage({ docs = KEYS[22], pending = KEYS[23], thread = KEYS[13], threadPosting = KEYS[24] }, id, threadId, ARGV[#ARGV], first)
local threadFields = { unpack(ARGV, messageEnd + 1, #ARGV - 1) }
if first and posting then
  threadFields[#threadFields + 1] = 'docs'
  threadFields[#threadFields + 1] = posting
end
local threadLists = { thread = KEYS[13], threadMessages = KEYS[14], threads = KEYS[15] }
local messageCount = fileOutbound(threadLists, first, threadId, id, nowText, ARGV[2], threadFields, loopEntries)
-- A test send is no first message for the 30-day rule, yet a reply by subject must find its thread.
if first and test then redis.call('HSET', KEYS[6], 'test ' .. to, threadId)
elseif first then redis.call('HSET', KEYS[6], to, threadId .. ' ' .. nowText) end
-- The day's hash of counts lives two days from its first count.
if redis.call('HINCRBY', KEYS[10], keyId, '1') == 1 then redis.call('PEXPIRE', KEYS[10], '172800000') end

local wake, known = false, nil
if draft then
  enterDrafts({ drafts = KEYS[8], inboxDrafts = KEYS[9], inbox = KEYS[2] }, id)
else
  local queued, head
  wake, queued, head = enterQueue({ queue = KEYS[7], inboxQueue = KEYS[4], slots = KEYS[5], inbox = KEYS[2] }, id, slot, day, answering, reserved)
  known = { drafts = tonumber(fields[5] or '0'), queued = queued, next = head, sent = tonumber(reserved[4] or '0') }
end
if idemHash ~= '' then redis.call('SET', KEYS[11], id .. ' ' .. idemHash, 'PX', ARGV[15]) end
appendJournal(KEYS[18], KEYS[19], ARGV[26], ARGV[27], ARGV[28])
appendEvent(KEYS[17], ARGV[29])
return answer(status, slot, wake, messageCount, known, pending)
