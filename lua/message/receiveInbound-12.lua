--[[
  Stores a message received over SMTP for one inbox, in the thread chosen by the caller (an existing
  thread of the inbox, or a new one), with its event and journal line: the inbound store, one atomic
  write. A message of this inbox already stored under the same Message-ID (a sender's retry) is not
  stored twice. A non-automatic message means the correspondent wrote: the thread's
  correspondent_wrote becomes '1' and its loop guard is cleared. Any inbound message brings an
  archived thread back and counts as unread.
  KEYS[1] inbox           hash of the receiving inbox (absent or deleted: refused)
  KEYS[2] message         hash of the new message
  KEYS[3] thread          hash of the thread (created from ARGV[2] when absent)
  KEYS[4] threadMessages  sorted set of the thread's message ids
  KEYS[5] threadOutbound  sorted set of outbound creation times since the last inbound message (loop guard)
  KEYS[6] threads         sorted set of thread ids by last activity
  KEYS[7] messageIds      hash "<inbox id> <Message-ID>" -> "<message id> <thread id>"
  KEYS[8] inboxContacts   hash correspondent -> thread id of its latest thread in the inbox
  KEYS[9] events          stream of the space's events
  KEYS[10] journal        hash line id -> line JSON
  KEYS[11] journalIndex   sorted set "<ref> <line id>"
  KEYS[12] webhook        hash of the space's declared webhook (url): whether to wake its delivery
  ARGV[1] request JSON: now (ms), now_iso, message_id, thread_id, new_thread (bool), automatic (bool),
          dedupe ('' none: "<inbox id> <Message-ID>"), contact (lowercase sender; '' none: not indexed)
  ARGV[2] thread fields JSON, written only when the thread does not exist yet
  ARGV[3] journal line id
  ARGV[4] journal line JSON (message.received or thread.replied)
  ARGV[5] journal refs JSON array
  ARGV[6] event envelope JSON (mail.message.received or mail.thread.replied)
  ARGV[7..] the message's fields and values, in pairs, written as they are (no JSON to decode)
  Returns {"stored":true,"webhook":bool} | {"duplicate":true,"message_id":...,"thread_id":...}
    | {"error":"not_found"} (the inbox is gone).
  Events: ARGV[6] (mail.message.received or mail.thread.replied); journal line ARGV[4].
]]
--- @include "refuse"
--- @include "setFields"
--- @include "appendJournal"
--- @include "appendEvent"
local req = cjson.decode(ARGV[1])
local status = redis.call('HGET', KEYS[1], 'status')
if not status or status == 'deleted' then return refuse('not_found') end
if req.dedupe ~= '' then
  local seen = redis.call('HGET', KEYS[7], req.dedupe)
  if seen then
    local messageId, threadId = string.match(seen, '^(%S+) (%S+)$')
    return cjson.encode({ duplicate = true, message_id = messageId, thread_id = threadId })
  end
  redis.call('HSET', KEYS[7], req.dedupe, req.message_id .. ' ' .. req.thread_id)
end

if redis.call('EXISTS', KEYS[3]) == 0 then setFields(KEYS[3], ARGV[2], {}) end
redis.call('HSET', KEYS[2], unpack(ARGV, 7))

redis.call('HINCRBY', KEYS[3], 'message_count', 1)
redis.call('HINCRBY', KEYS[3], 'inbound_count', 1)
redis.call('HINCRBY', KEYS[3], 'unread', 1)
local wrote = {}
if not req.automatic then
  wrote = { 'correspondent_wrote', '1' }
  redis.call('DEL', KEYS[5])
end
redis.call('HSET', KEYS[3], 'last_message_at', req.now_iso, 'last_direction', 'inbound', 'archived', '0', unpack(wrote))
redis.call('ZADD', KEYS[4], 0, req.message_id)
redis.call('ZADD', KEYS[6], req.now, req.thread_id)
if req.new_thread and req.contact ~= '' then redis.call('HSET', KEYS[8], req.contact, req.thread_id) end
appendJournal(KEYS[10], KEYS[11], ARGV[3], ARGV[4], ARGV[5])
appendEvent(KEYS[9], ARGV[6])
return cjson.encode({ stored = true, webhook = redis.call('HEXISTS', KEYS[12], 'url') == 1 })
