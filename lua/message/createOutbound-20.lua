--[[
  Creates an outbound message (send_email: a first message in a new thread; reply_to_thread: an answer
  in an existing one) and decides, atomically, every rule that depends on shared state: idempotency,
  inbox and domain status, the common-domain rule, plan, suppression, the 30-day duplicate rule, the
  loop guard, the key's daily cap, the inbox queue cap, and the departure slot (window, warm-up quota
  of the day, spacing). N concurrent calls can never oversubscribe a quota, a cap or a queue.
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
  ARGV[1] request JSON: now, now_iso, today (Paris day), mode ('first'|'reply'), message_id, thread_id, key_id, key_cap (0: none),
          to, to_domain ('@domain'), third_party, test, draft, idem_hash ('' none), idem_ttl_ms,
          duplicate_ms, queue_cap, intervals and reply_intervals ({day, start, end, quota} lists),
          spacing_ms, earliest, next_day_ms, loop_max, loop_window_ms, dry_run
  ARGV[2] message fields JSON (string values), written as they are
  ARGV[3] thread fields JSON for a first message ('{}' for a reply)
  ARGV[4] journal line id
  ARGV[5] journal line JSON
  ARGV[6] journal refs JSON array
  ARGV[7] event envelope JSON (mail.message.queued or mail.draft.created)
  Returns {"status":"queued"|"draft","slot":<ms or null>,"wake":bool,"inbox":{...},"thread":{...}}
    | {"dry_run":true,"status":...,"slot":...} | {"replayed":true,"message_id":...}
    | {"error": idempotency_conflict | not_found | inbox_suspended {reason} | domain_not_verified
      | domain_suspended | own_domain_required | payment_required | recipient_suppressed {reason}
      | duplicate_recipient {thread_id} | thread_loop_guard {retry_after_seconds}
      | key_daily_cap {retry_after_seconds} | queue_full {retry_after_seconds}}.
  Events: mail.message.queued or mail.draft.created; journal line message.queued or draft.created.
]]
--- @include "refuse"
--- @include "hashToTable"
--- @include "setFields"
--- @include "senderRefusal"
--- @include "suppressionRefusal"
--- @include "enterQueue"
--- @include "inboxFigures"
--- @include "appendJournal"
--- @include "appendEvent"
local req = cjson.decode(ARGV[1])
local now = req.now

if req.idem_hash ~= '' then
  local seen = redis.call('GET', KEYS[11])
  if seen then
    local id, hash = string.match(seen, '^(%S+) (%S+)$')
    if hash == req.idem_hash then return cjson.encode({ replayed = true, message_id = id }) end
    return refuse('idempotency_conflict')
  end
end

local inbox = hashToTable(KEYS[2])
local refusal = senderRefusal(inbox, KEYS[3])
if refusal then return refusal end

local thread = {}
if req.mode == 'reply' then
  thread = hashToTable(KEYS[13])
  if not thread.id or thread.inbox_id ~= inbox.id then return refuse('not_found') end
end
local answering = req.mode == 'reply' and thread.correspondent_wrote == '1'
if inbox.shared == '1' and req.third_party and not answering then return refuse('own_domain_required') end

if req.third_party and not req.draft and (redis.call('HGET', KEYS[1], 'plan') or 'none') == 'none' then
  return refuse('payment_required')
end

if not req.test then
  refusal = suppressionRefusal(KEYS[17], req.to, req.to_domain)
  if refusal then return refusal end
end

if req.mode == 'first' and not req.test then
  local last = redis.call('HGET', KEYS[6], req.to)
  if last then
    local threadId, at = string.match(last, '^(%S+) (%S+)$')
    if now - tonumber(at) < req.duplicate_ms then return refuse('duplicate_recipient', { thread_id = threadId }) end
  end
end

if req.mode == 'reply' then
  redis.call('ZREMRANGEBYSCORE', KEYS[15], '-inf', now - req.loop_window_ms)
  if redis.call('ZCARD', KEYS[15]) >= req.loop_max then
    local oldest = redis.call('ZRANGE', KEYS[15], 0, 0, 'WITHSCORES')
    local wait = math.ceil((tonumber(oldest[2]) + req.loop_window_ms - now) / 1000)
    return refuse('thread_loop_guard', { retry_after_seconds = math.max(wait, 1) })
  end
end

if req.key_cap > 0 and tonumber(redis.call('HGET', KEYS[10], req.key_id) or '0') >= req.key_cap then
  return refuse('key_daily_cap', { retry_after_seconds = math.max(math.ceil((req.next_day_ms - now) / 1000), 1) })
end

if tonumber(inbox.drafts or '0') + tonumber(inbox.queued or '0') >= req.queue_cap then
  return refuse('queue_full', { retry_after_seconds = 3600 })
end

local slot, day
if not req.draft then
  slot, day = findSlot(KEYS[5], answering and req.reply_intervals or req.intervals, req.earliest, req.spacing_ms)
  if not slot then return refuse('queue_full', { retry_after_seconds = 86400 }) end
end
local status = req.draft and 'draft' or 'queued'
if req.dry_run then return cjson.encode({ dry_run = true, status = status, slot = slot or cjson.null }) end

local id = req.message_id
setFields(KEYS[12], ARGV[2], { 'status', status, 'revision', '1', 'slot', slot or '', 'any_time', answering and '1' or '0' })
if req.mode == 'first' then
  setFields(KEYS[13], ARGV[3], { 'message_count', '1' })
  if not req.test then redis.call('HSET', KEYS[6], req.to, req.thread_id .. ' ' .. now) end
else
  redis.call('HINCRBY', KEYS[13], 'message_count', 1)
  redis.call('HSET', KEYS[13], 'last_message_at', req.now_iso, 'last_direction', 'outbound')
end
redis.call('ZADD', KEYS[14], 0, id)
redis.call('ZADD', KEYS[15], now, id)
redis.call('ZADD', KEYS[16], now, req.thread_id)
redis.call('HINCRBY', KEYS[10], req.key_id, 1)
redis.call('PEXPIRE', KEYS[10], 172800000)

local wake = false
if req.draft then
  redis.call('HINCRBY', KEYS[2], 'drafts', 1)
  redis.call('ZADD', KEYS[8], 0, id)
  redis.call('ZADD', KEYS[9], 0, id)
else
  wake = enterQueue({ queue = KEYS[7], inboxQueue = KEYS[4], slots = KEYS[5], inbox = KEYS[2] }, id, slot, day)
end
if req.idem_hash ~= '' then redis.call('SET', KEYS[11], id .. ' ' .. req.idem_hash, 'PX', req.idem_ttl_ms) end
appendJournal(KEYS[19], KEYS[20], ARGV[4], ARGV[5], ARGV[6])
appendEvent(KEYS[18], ARGV[7])

return cjson.encode({
  status = status,
  slot = slot or cjson.null,
  wake = wake,
  inbox = inboxFigures(KEYS[2], KEYS[4], KEYS[5], req.today),
  thread = hashToTable(KEYS[13]),
})
