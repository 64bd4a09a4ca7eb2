--[[
  Creates an outbound message (send_email: a first message in a new thread; reply_to_thread: an answer
  in an existing one) and decides, atomically, every rule that depends on shared state: idempotency,
  inbox and domain status, the common-domain rule, plan, suppression, the 30-day duplicate rule, the
  loop guard, the key's daily cap, the inbox queue cap, and the departure slot (window, warm-up quota
  of the day, spacing). N concurrent calls can never oversubscribe a quota, a cap or a queue.
  The hot path of the service: arguments are positional strings and field lists, not JSON to decode;
  numbers reach redis.call as strings (Redis formats a Lua number with snprintf at every call); the
  reply carries only what the caller cannot know (BENCHMARKS.md, "Sending").
  KEYS[1] space            hash of the space's fields (plan)
  KEYS[2] inbox            hash of the sending inbox (status, shared, drafts, queued)
  KEYS[3] domain           hash of the inbox's own domain (status); absent for the common domain
  KEYS[4] inboxQueue       sorted set of the inbox's queued message ids by departure (ms)
  KEYS[5] inboxSlots       hash of reserved departures per day, and `last`
  KEYS[6] inboxRecipients  hash recipient -> "<thread id> <ms>" of the last first message
  KEYS[7] queue            sorted set of the space's queued message ids by departure (ms)
  KEYS[8] drafts           sorted set of the space's draft ids
  KEYS[9] inboxDrafts      sorted set of the inbox's draft ids
  KEYS[10] keySent         hash key id -> messages created today (Paris day)
  KEYS[11] idempotency     string "<message id> <content hash>" for the given idempotency key
  KEYS[12] message         hash of the new message
  KEYS[13] thread          hash of the thread (new for a first message)
  KEYS[14] threadMessages  sorted set of the thread's message ids
  KEYS[15] threadOutbound  sorted set of outbound creation times since the last inbound message
  KEYS[16] threads         sorted set of thread ids by last activity
  KEYS[17] suppressions    hash of suppressed values (address, @domain)
  KEYS[18] events          stream of the space's events
  KEYS[19] journal         hash line id -> line JSON
  KEYS[20] journalIndex    sorted set "<ref> <line id>"
  KEYS[21] webhook         hash of the space's declared webhook (url): whether to wake its delivery
  ARGV[1] now (ms)            ARGV[2] now, ISO 8601        ARGV[3] today (Paris day)
  ARGV[4] mode: first|reply   ARGV[5] message id           ARGV[6] thread id
  ARGV[7] key id              ARGV[8] key daily cap (0: none)
  ARGV[9] to                  ARGV[10] '@' .. to's domain
  ARGV[11] third party (1|0)  ARGV[12] test (1|0)          ARGV[13] draft (1|0)
  ARGV[14] idempotency content hash ('' without a key)     ARGV[15] idempotency TTL (ms)
  ARGV[16] duplicate window (ms)                           ARGV[17] queue cap
  ARGV[18] spacing (ms)       ARGV[19] earliest departure (ms)
  ARGV[20] next Paris midnight (ms)                        ARGV[21] loop guard: most messages
  ARGV[22] loop guard window (ms)                          ARGV[23] dry run (1|0)
  ARGV[24] intervals, ARGV[25] reply intervals: "<day> <start> <end> <quota>,..." (lua/includes/findSlot.lua)
  ARGV[26] journal line id    ARGV[27] journal line JSON   ARGV[28] journal refs JSON array
  ARGV[29] event envelope JSON (mail.message.queued or mail.draft.created)
  ARGV[30] n = number of message field/value pairs; ARGV[31 .. 30+2n] the message's fields and values
           but status, revision, slot and any_time, written as they are; the rest: the new thread's fields
           and values (message_count 1) for a first message, none for a reply
  Returns {"status":"queued"|"draft","slot":<ms or null>,"wake":bool,"webhook":bool,"message_count":n,"inbox":{...}}
    | {"dry_run":true,"status":...,"slot":...} | {"replayed":true,"message_id":...}
    | {"error": idempotency_conflict | not_found | inbox_suspended {reason} | domain_not_verified
      | domain_suspended | own_domain_required | payment_required | recipient_suppressed {reason}
      | duplicate_recipient {thread_id} | thread_loop_guard {retry_after_seconds}
      | key_daily_cap {retry_after_seconds} | queue_full {retry_after_seconds}}.
  Events: mail.message.queued or mail.draft.created; journal line message.queued or draft.created.
]]
--- @include "refuse"
--- @include "senderRefusal"
--- @include "suppressionRefusal"
--- @include "findSlot"
--- @include "enterQueue"
--- @include "inboxFigures"
--- @include "appendJournal"
--- @include "appendEvent"
local nowText = ARGV[1]
local now = tonumber(nowText)
local first = ARGV[4] == 'first'
local threadId, keyId, to = ARGV[6], ARGV[7], ARGV[9]
local thirdParty, test, draft = ARGV[11] == '1', ARGV[12] == '1', ARGV[13] == '1'
local idemHash = ARGV[14]

if idemHash ~= '' then
  local seen = redis.call('GET', KEYS[11])
  if seen then
    local id, hash = string.match(seen, '^(%S+) (%S+)$')
    if hash == idemHash then return cjson.encode({ replayed = true, message_id = id }) end
    return refuse('idempotency_conflict')
  end
end

local fields = redis.call('HMGET', KEYS[2], 'id', 'status', 'status_reason', 'shared', 'drafts', 'queued')
local inbox = { id = fields[1], status = fields[2], status_reason = fields[3], shared = fields[4] }
local refusal = senderRefusal(inbox, KEYS[3])
if refusal then return refusal end

local answering = false
if not first then
  local thread = redis.call('HMGET', KEYS[13], 'id', 'inbox_id', 'correspondent_wrote')
  if not thread[1] or thread[2] ~= inbox.id then return refuse('not_found') end
  answering = thread[3] == '1'
end
if inbox.shared == '1' and thirdParty and not answering then return refuse('own_domain_required') end

if thirdParty and not draft and (redis.call('HGET', KEYS[1], 'plan') or 'none') == 'none' then
  return refuse('payment_required')
end

if not test then
  refusal = suppressionRefusal(KEYS[17], to, ARGV[10])
  if refusal then return refusal end
end

if first and not test then
  local last = redis.call('HGET', KEYS[6], to)
  if last then
    local lastThread, at = string.match(last, '^(%S+) (%S+)$')
    if now - tonumber(at) < tonumber(ARGV[16]) then return refuse('duplicate_recipient', { thread_id = lastThread }) end
  end
end

if not first then
  local loopWindow = tonumber(ARGV[22])
  redis.call('ZREMRANGEBYSCORE', KEYS[15], '-inf', now - loopWindow)
  if redis.call('ZCARD', KEYS[15]) >= tonumber(ARGV[21]) then
    local oldest = redis.call('ZRANGE', KEYS[15], '0', '0', 'WITHSCORES')
    local wait = math.ceil((tonumber(oldest[2]) + loopWindow - now) / 1000)
    return refuse('thread_loop_guard', { retry_after_seconds = math.max(wait, 1) })
  end
end

local keyCap = tonumber(ARGV[8])
if keyCap > 0 and tonumber(redis.call('HGET', KEYS[10], keyId) or '0') >= keyCap then
  return refuse('key_daily_cap', { retry_after_seconds = math.max(math.ceil((tonumber(ARGV[20]) - now) / 1000), 1) })
end

if tonumber(fields[5] or '0') + tonumber(fields[6] or '0') >= tonumber(ARGV[17]) then
  return refuse('queue_full', { retry_after_seconds = 3600 })
end

local slot, day
if not draft then
  slot, day = findSlot(KEYS[5], answering and ARGV[25] or ARGV[24], tonumber(ARGV[19]), tonumber(ARGV[18]))
  if not slot then return refuse('queue_full', { retry_after_seconds = 86400 }) end
end
local status = draft and 'draft' or 'queued'
if ARGV[23] == '1' then return cjson.encode({ dry_run = true, status = status, slot = slot or cjson.null }) end

local id = ARGV[5]
local messageEnd = 30 + 2 * tonumber(ARGV[30])
redis.call('HSET', KEYS[12], 'status', status, 'revision', '1', 'slot', slot and string.format('%d', slot) or '',
  'any_time', answering and '1' or '0', unpack(ARGV, 31, messageEnd))
local messageCount = 1
if first then
  redis.call('HSET', KEYS[13], unpack(ARGV, messageEnd + 1, #ARGV))
  if not test then redis.call('HSET', KEYS[6], to, threadId .. ' ' .. nowText) end
else
  messageCount = redis.call('HINCRBY', KEYS[13], 'message_count', '1')
  redis.call('HSET', KEYS[13], 'last_message_at', ARGV[2], 'last_direction', 'outbound')
end
redis.call('ZADD', KEYS[14], '0', id)
redis.call('ZADD', KEYS[15], nowText, id)
redis.call('ZADD', KEYS[16], nowText, threadId)
redis.call('HINCRBY', KEYS[10], keyId, '1')
redis.call('PEXPIRE', KEYS[10], '172800000')

local wake = false
if draft then
  redis.call('HINCRBY', KEYS[2], 'drafts', '1')
  redis.call('ZADD', KEYS[8], '0', id)
  redis.call('ZADD', KEYS[9], '0', id)
else
  wake = enterQueue({ queue = KEYS[7], inboxQueue = KEYS[4], slots = KEYS[5], inbox = KEYS[2] }, id, slot, day)
end
if idemHash ~= '' then redis.call('SET', KEYS[11], id .. ' ' .. idemHash, 'PX', ARGV[15]) end
appendJournal(KEYS[19], KEYS[20], ARGV[26], ARGV[27], ARGV[28])
appendEvent(KEYS[18], ARGV[29])

return cjson.encode({
  status = status,
  slot = slot or cjson.null,
  wake = wake,
  webhook = redis.call('HEXISTS', KEYS[21], 'url') == 1,
  message_count = messageCount,
  inbox = inboxFigures(KEYS[2], KEYS[4], KEYS[5], ARGV[3]),
})
