--[[
  Corrects a draft (update_draft): writes the changed fields (subject, text, html; '' html removes the
  HTML version; attachments, the new list of files) and moves the revision on, so an approval of what
  the human read before is refused. A first message alone in its thread also gives the thread its new
  subject; the thread's latest message gives it its new snippet. The caller compared its read of the draft with the request to know what changes; if the
  revision moved since, the script answers
  `stale` and the caller reads again. A changed subject or text indexes the draft again, as a new
  document of the search index (indexMessage): found by its new words from then on (its old ones too).
  KEYS[1] message          hash of the draft
  KEYS[2] thread           hash of its thread (subject, snippet)
  KEYS[3] journal          hash line id -> line JSON
  KEYS[4] journalIndex     hash: the index lists of line id bodies (journalIndexAdd)
  KEYS[5] blobs            set of the SHA-256 (base64url) of the space's blobs that records point to
  KEYS[6] searchDocs       string of the search index's document records
  KEYS[7] searchPending    list of the search index's entries waiting for search/postPending (indexMessage)
  KEYS[8] searchThread     string: the thread's document numbers once past its hash's `docs` (indexMessage)
  KEYS[9] threadMessages   sorted set of the thread's message ids (when its hash does not keep them)
  ARGV[1] revision: string   the revision the caller read
  ARGV[2] changes: json      changed fields JSON: subject, text, html, attachments (string values; only those that change)
  ARGV[3] lineId: string     journal line id
  ARGV[4] lineJson: json     journal line JSON (draft.updated)
  ARGV[5] lineRefs: json     journal refs JSON array
  ARGV[6] blobs: string      SHA-256 (base64url) of the new files, already in the blob store, space-separated ('' none)
  ARGV[7] reindex: flag      index again: the subject or the text changes
  ARGV[8] indexed: string    the corrected draft's search entry: "<inbox id> <word> ..." (actors/search.ts indexing)
  ARGV[9] messageId: string  the message id (its hash does not hold it)
  ARGV[10] snippet: string   the thread's snippet of the corrected text (src/mail/content.ts threadSnippet); '' when the text does not change
  Returns { message: HashFields, pending?: number } | { stale: true }
    // message: the draft's fields; pending: the search entries waiting once its new one joined them
  Refuses not_found | not_draft
  Events: none; journal line draft.updated.
]]
--- @include "refuse"
--- @include "hashToTable"
--- @include "appendJournal"
--- @include "replayedLine"
--- @include "indexMessage"
--- @include "lastInThread"
if replayedLine(KEYS[3], ARGV[3]) then return cjson.encode({ message = hashToTable(KEYS[1]) }) end
local message = hashToTable(KEYS[1])
if not message.status then return refuse('not_found') end
if message.status ~= 'draft' then return refuse('not_draft') end
if message.revision ~= ARGV[1] then return cjson.encode({ stale = true }) end

local changes = cjson.decode(ARGV[2])
for field, value in pairs(changes) do redis.call('HSET', KEYS[1], field, value) end
if changes.subject and redis.call('HGET', KEYS[2], 'message_count') == '1' then redis.call('HSET', KEYS[2], 'subject', changes.subject) end
if changes.text and lastInThread(KEYS[2], KEYS[9]) == ARGV[9] then redis.call('HSET', KEYS[2], 'snippet', ARGV[10]) end
redis.call('HINCRBY', KEYS[1], 'revision', 1)
for sha in string.gmatch(ARGV[6], '%S+') do redis.call('SADD', KEYS[5], sha) end
local pending = nil
if ARGV[7] == '1' then
  pending = select(2, indexMessage({ docs = KEYS[6], pending = KEYS[7], thread = KEYS[2], threadPosting = KEYS[8] }, ARGV[9], message.thread_id, ARGV[8], false))
end
appendJournal(KEYS[3], KEYS[4], ARGV[3], ARGV[4], ARGV[5])
return cjson.encode({ message = hashToTable(KEYS[1]), pending = pending })
