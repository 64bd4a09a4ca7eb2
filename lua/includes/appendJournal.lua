-- Journal line writer: the line's compact stored form (built by the caller, actors/journal.ts; text
-- rendered at read time) under its id, and its body (the id without `log_`) filed in the index lists
-- of `* ` (every line) and of each ref's prefix. Line ids are time-ordered, so a day or a page is a
-- range of one list (docs/architecture.md, "Journal layout"). The lists' open buckets are read in one
-- HMGET and written in one HSET (a ref named twice is filed once): three commands a line, whatever its refs.
--- @include "journalIndexAdd"
local function appendJournal(journalKey, indexKey, lineId, lineJson, refsJson)
  redis.call('HSET', journalKey, lineId, lineJson)
  local body = string.sub(lineId, 5)
  local prefixes, named = { '* ' }, { ['* '] = true }
  for _, prefix in ipairs(cjson.decode(refsJson)) do
    if not named[prefix] then
      named[prefix] = true
      prefixes[#prefixes + 1] = prefix
    end
  end
  local opens = redis.call('HMGET', indexKey, unpack(prefixes))
  local writes = {}
  for i, prefix in ipairs(prefixes) do journalIndexAdd(indexKey, prefix, body, opens[i], writes) end
  redis.call('HSET', indexKey, unpack(writes))
end
