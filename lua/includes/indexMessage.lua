-- Search index writer at store time (actors/search.ts, docs/architecture.md "Search"): the message the
-- calling script stores becomes the next document of its space's index, in the same atomic step, so
-- every stored message is found and nothing unstored is. Its number n is the count of 40-character
-- records in `index.docs` (`<message id body><thread id body>`) before its own is appended, plus the documents cut from
-- its front once moved to search segments (docsCut); n, 3 bytes big-endian, is
-- appended to its thread's numbers now, and queued with the inbox and words the message is found by
-- (`entry`, "<inbox id> <word> ...": actors/search.ts indexing) in `index.pending`, whose entries
-- search/postPending files in the inbox's and words' postings a batch at a time, and always before a
-- search reads them. A thread's first THREAD_DOCS_MAX numbers are the field `docs` of its hash (a key
-- of its own cost a thread some 120 bytes of Redis); the next one moves them all to its own posting
-- (`threadPosting`), appended to from then on: a field is rewritten whole at each message, which a long
-- thread would pay in proportion to its length. Past DOCS_MAX (a string's 512 MB) messages are stored,
-- not indexed.
-- `index` = { docs, pending, thread, threadPosting }: keys, `thread` the thread's hash.
-- `newThread`: the message opens a thread whose hash the caller writes next; its `docs` is then left to
-- the caller (the returned posting), which writes it with the thread's other fields. Returns the
-- message's posting and the number of entries pending; nil when it is not indexed.
--- @include "docsCut"
local DOCS_MAX = 13000000
local THREAD_DOCS_MAX = 8

local function indexMessage(index, messageId, threadId, entry, newThread)
  -- The append answers the records' new length: no STRLEN before it. Past Redis's largest string it
  -- fails alone (pcall): the message is stored, not indexed; a record past DOCS_MAX is never named.
  local length = redis.pcall('APPEND', index.docs, string.sub(messageId, 5) .. string.sub(threadId, 5))
  if type(length) ~= 'number' then return nil end
  local doc = length / 40 - 1 + docsCut(index.docs)
  if doc >= DOCS_MAX then return nil end
  local posting = string.char(math.floor(doc / 65536), math.floor(doc / 256) % 256, doc % 256)
  if not newThread then
    local held = redis.call('HGET', index.thread, 'docs')
    if held and #held >= 3 * THREAD_DOCS_MAX then
      redis.call('HDEL', index.thread, 'docs')
      redis.call('APPEND', index.threadPosting, held .. posting)
    elseif held or redis.call('EXISTS', index.threadPosting) == 0 then
      redis.call('HSET', index.thread, 'docs', (held or '') .. posting)
    else
      redis.call('APPEND', index.threadPosting, posting)
    end
  end
  return posting, redis.call('RPUSH', index.pending, posting .. entry)
end
