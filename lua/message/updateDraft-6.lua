--[[
  Corrects a draft (update_draft): writes the changed fields (subject, text, html; '' html removes the
  HTML version; attachments, the new list of files) and moves the revision on, so an approval of what the human read before is refused. A
  first message alone in its thread also gives the thread its new subject. The caller compared its read
  of the draft with the request to know what changes; if the revision moved since, the script answers
  `stale` and the caller reads again.
  KEYS[1] message          hash of the draft
  KEYS[2] thread           hash of its thread (subject)
  KEYS[3] threadMessages   sorted set of the thread's message ids
  KEYS[4] journal          hash line id -> line JSON
  KEYS[5] journalIndex     sorted set "<ref> <line id>"
  KEYS[6] blobs            set of the SHA-256 of the space's blobs that records point to
  ARGV[1] the revision the caller read
  ARGV[2] changed fields JSON: subject, text, html, attachments (string values; only those that change)
  ARGV[3] journal line id
  ARGV[4] journal line JSON (draft.updated)
  ARGV[5] journal refs JSON array
  ARGV[6] SHA-256 of the new files, already in the blob store, space-separated ('' none)
  Returns {"message": {...the draft's fields}} | {"stale": true} | {"error": not_found | not_draft}.
  Events: none; journal line draft.updated.
]]
--- @include "refuse"
--- @include "hashToTable"
--- @include "appendJournal"
--- @include "replayedLine"
if replayedLine(KEYS[4], ARGV[3]) then return cjson.encode({ message = hashToTable(KEYS[1]) }) end
local message = hashToTable(KEYS[1])
if not message.id then return refuse('not_found') end
if message.status ~= 'draft' then return refuse('not_draft') end
if message.revision ~= ARGV[1] then return cjson.encode({ stale = true }) end

local changes = cjson.decode(ARGV[2])
for field, value in pairs(changes) do redis.call('HSET', KEYS[1], field, value) end
for sha in string.gmatch(ARGV[6], '%S+') do redis.call('SADD', KEYS[6], sha) end
if changes.subject and redis.call('ZCARD', KEYS[3]) == 1 then redis.call('HSET', KEYS[2], 'subject', changes.subject) end
redis.call('HINCRBY', KEYS[1], 'revision', 1)
appendJournal(KEYS[4], KEYS[5], ARGV[3], ARGV[4], ARGV[5])
return cjson.encode({ message = hashToTable(KEYS[1]) })
