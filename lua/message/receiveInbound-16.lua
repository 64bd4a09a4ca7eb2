--[[
  Stores a message received over SMTP for one inbox, in the thread chosen by the caller (an existing
  thread of the inbox, or a new one), with its event and journal line: the inbound store, one atomic
  write. A message of this inbox already stored under the same Message-ID (a sender's retry) is not
  stored twice. A non-automatic message means the correspondent wrote: the thread's
  correspondent_wrote becomes '1' and its loop guard is cleared. Any inbound message brings an
  archived thread back and counts as unread. The message enters the space's search index (indexMessage).
  KEYS[1] inbox           hash of the receiving inbox (absent or deleted: refused)
  KEYS[2] message         hash of the new message
  KEYS[3] thread          hash of the thread (created from ARGV[14 ..] when absent; absent too while in history)
  KEYS[4] threadMessages  sorted set of the thread's message ids
  KEYS[5] threads         sorted set of thread ids by last activity
  KEYS[6] messageIds      hash: a received Message-ID (messageIdEntry in actors/inbound.ts) -> "<message id body><thread id body>"
  KEYS[7] inboxContacts   hash correspondent -> thread id of its latest thread in the inbox
  KEYS[8] events          stream of the space's events
  KEYS[9] journal        hash line id -> line JSON
  KEYS[10] journalIndex   hash: the index lists of line id bodies (journalIndexAdd)
  KEYS[11] webhook        hash of the space's declared webhook (url): whether to wake its delivery
  KEYS[12] blobs          set of the SHA-256 (base64url) of the space's blobs that records point to
  KEYS[13] attachments    hash attachment id -> message id of the received files (forwarding)
  KEYS[14] searchDocs     string of the search index's document records
  KEYS[15] searchPending  list of the search index's entries waiting for search/postPending (indexMessage)
  KEYS[16] searchThread   string: the thread's document numbers once past its hash's `docs` (indexMessage)
  ARGV[1] now: number                now (ms)
  ARGV[2] nowIso: string             now, ISO 8601
  ARGV[3] messageId: string          message id
  ARGV[4] threadId: string           thread id
  ARGV[5] newThread: flag            a new thread: the correspondent's latest thread becomes this one
  ARGV[6] automatic: flag            an automatic message (no correspondent wrote)
  ARGV[7] dedupe: string             its Message-ID entry (messageIdEntry), '' for none
  ARGV[8] contact: string            the lowercase sender; '' for none: not indexed
  ARGV[9] lineId: string             journal line id
  ARGV[10] lineJson: json            journal line JSON (message.received or thread.replied)
  ARGV[11] lineRefs: json            journal refs JSON array
  ARGV[12] event: string             packed event (actors/events.ts prepareEvent) (mail.message.received or mail.thread.replied)
  ARGV[13] blobs: string             the message's blobs, already stored, space-separated (SHA-256 in base64url): "<sha256>" for its source when it is a blob,
                                     "<attachment id>:<sha256>" for each attachment
  ARGV[14 ..] thread: counted pairs  the thread's fields and values, written when the thread does not exist yet (an existing
                                     one takes its `snippet` alone)
  ARGV[..] message: pairs            the message's fields and values. Both written as they are (no JSON to decode); fields at
                                     their default are left out (readers fill them in: actors/stored-records.ts)
  ARGV[#ARGV] indexed: string        the message's search entry: "<inbox id> <word> ..." (actors/search.ts indexing)
  Returns { stored: true, webhook: boolean, campaign?: { id: string, contact: string }, pending: number | null }
    // campaign: a reply (not automatic) in a campaign's thread: the campaign and the thread's contact;
    // pending: the search entries waiting once this one joined them (null: none joined)
    | { duplicate: true, message_id: string, thread_id: string }
    | { history: true } // the thread is in history (actors/history.ts): nothing written
  Refuses not_found (the inbox is gone)
  Events: ARGV[12] (mail.message.received or mail.thread.replied); journal line ARGV[10].
]]
--- @include "refuse"
--- @include "appendJournal"
--- @include "appendEvent"
--- @include "webhookDeclared"
--- @include "replayedLine"
--- @include "indexMessage"
--- @include "keepLoopWindow"
--- @include "fileInThread"
local nowText, nowIso, messageId, threadId = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local automatic, dedupe = ARGV[6] == '1', ARGV[7]

-- The answer of a stored message; a reply in a campaign's thread names the campaign and the contact,
-- whose follow-ups the caller stops at once (lua/campaign/recordReply).
local function stored(pending)
  local campaign = nil
  if not automatic then
    local fields = redis.call('HMGET', KEYS[3], 'campaign_id', 'contact')
    if fields[1] and fields[1] ~= '' then campaign = { id = fields[1], contact = fields[2] } end
  end
  return cjson.encode({ stored = true, webhook = webhookDeclared(KEYS[11]), campaign = campaign, pending = pending or cjson.null })
end

if replayedLine(KEYS[9], ARGV[9]) then return stored() end
local status = redis.call('HGET', KEYS[1], 'status')
if not status or status == 'deleted' then return refuse('not_found') end
-- A thread that went into history since it was found: the caller brings it back and runs this again.
-- Its hash is gone (its row packed in the name buckets) while the threads' list still holds it.
if redis.call('EXISTS', KEYS[3]) == 0 and redis.call('ZSCORE', KEYS[5], ARGV[4]) then
  return cjson.encode({ history = true })
end
if dedupe ~= '' then
  local seen = redis.call('HGET', KEYS[6], dedupe)
  if seen then
    return cjson.encode({ duplicate = true, message_id = 'msg_' .. string.sub(seen, 1, 20), thread_id = 'thr_' .. string.sub(seen, 21) })
  end
  -- The ids' bodies, without their prefixes: `<message><thread>`, 40 characters.
  redis.call('HSET', KEYS[6], dedupe, string.sub(messageId, 5) .. string.sub(threadId, 5))
end

local threadEnd = 14 + 2 * tonumber(ARGV[14])
local newThread = redis.call('EXISTS', KEYS[3]) == 0
if newThread then redis.call('HSET', KEYS[3], unpack(ARGV, 15, threadEnd)) end
redis.call('HSET', KEYS[2], unpack(ARGV, threadEnd + 1, #ARGV - 1))
for blob in string.gmatch(ARGV[13], '%S+') do
  local attachmentId, sha = string.match(blob, '^([^:]+):(.+)$')
  if attachmentId then redis.call('HSET', KEYS[13], attachmentId, messageId) end
  redis.call('SADD', KEYS[12], sha or blob)
end

redis.call('HINCRBY', KEYS[3], 'message_count', 1)
redis.call('HINCRBY', KEYS[3], 'inbound_count', 1)
redis.call('HINCRBY', KEYS[3], 'unread', 1)
-- The last direction back to its default, inbound, which the hash leaves out (actors/stored-records.ts).
redis.call('HDEL', KEYS[3], 'last_direction', 'archived')
local changes = {}
if not automatic then
  changes[#changes + 1] = 'correspondent_wrote'
  changes[#changes + 1] = '1'
  keepLoopWindow(KEYS[3], {})
end
-- A new thread's last activity is its creation, which its hash leaves out (actors/stored-records.ts).
if not newThread then
  changes[#changes + 1] = 'last_message_at'
  changes[#changes + 1] = nowIso
  -- The snippet follows the latest message; absent from the pairs, it is '' (the default): removed.
  local snippet = ''
  for i = 15, threadEnd, 2 do
    if ARGV[i] == 'snippet' then snippet = ARGV[i + 1] end
  end
  if snippet == '' then redis.call('HDEL', KEYS[3], 'snippet') else
    changes[#changes + 1] = 'snippet'
    changes[#changes + 1] = snippet
  end
end
if #changes > 0 then redis.call('HSET', KEYS[3], unpack(changes)) end
fileInThread(KEYS[3], KEYS[4], messageId)
redis.call('ZADD', KEYS[5], nowText, threadId)
local pending = select(2, indexMessage({ docs = KEYS[14], pending = KEYS[15], thread = KEYS[3], threadPosting = KEYS[16] }, messageId, threadId, ARGV[#ARGV], false))
if ARGV[5] == '1' and ARGV[8] ~= '' then redis.call('HSET', KEYS[7], ARGV[8], threadId) end
appendJournal(KEYS[9], KEYS[10], ARGV[9], ARGV[10], ARGV[11])
appendEvent(KEYS[8], ARGV[12])
return stored(pending)
