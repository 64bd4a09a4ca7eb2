-- Search index writer (actors/search.ts, docs/architecture.md "Search"): the message the calling script
-- stores becomes the next document of its space's index, in the same atomic step, so every stored
-- message is found and nothing unstored is. Its number n is the count of 40-character records in
-- `index.docs` (`<message id body><thread id body>`, appended); n, 3 bytes big-endian, is appended to
-- the postings of its inbox, its thread (the thread hash's field `docs`: a key of its own cost a thread
-- some 120 bytes of Redis) and each of its words (KEYS[firstWordKey ..], in the order of `words`, one
-- space-separated string); a word met for the first time joins `index.words`, the set the
-- last word of a query is completed from. Past DOCS_MAX (a string's 512 MB) messages are stored, not indexed.
-- `index` = { docs, words, inbox, thread }: keys, `thread` the thread's hash.
local DOCS_MAX = 13000000

local function indexMessage(index, messageId, threadId, words, firstWordKey)
  local doc = redis.call('STRLEN', index.docs) / 40
  if doc >= DOCS_MAX then return end
  redis.call('APPEND', index.docs, string.sub(messageId, 5) .. string.sub(threadId, 5))
  local posting = string.char(math.floor(doc / 65536), math.floor(doc / 256) % 256, doc % 256)
  redis.call('APPEND', index.inbox, posting)
  redis.call('HSET', index.thread, 'docs', (redis.call('HGET', index.thread, 'docs') or '') .. posting)
  local key = firstWordKey
  for word in string.gmatch(words, '%S+') do
    if redis.call('APPEND', KEYS[key], posting) == 3 then redis.call('ZADD', index.words, '0', word) end
    key = key + 1
  end
end
