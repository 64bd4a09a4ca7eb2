-- Journal line writer: the line's compact stored form (built by the caller, actors/journal.ts; text
-- rendered at read time) under its id, and its body (the id without `log_`) filed in the index lists
-- of `* ` (every line) and of each ref's prefix. Line ids are time-ordered, so a day or a page is a
-- range of one list (docs/architecture.md, "Journal layout").
--- @include "journalIndexAdd"
local function appendJournal(journalKey, indexKey, lineId, lineJson, refsJson)
  redis.call('HSET', journalKey, lineId, lineJson)
  local body = string.sub(lineId, 5)
  journalIndexAdd(indexKey, '* ', body)
  for _, prefix in ipairs(cjson.decode(refsJson)) do journalIndexAdd(indexKey, prefix, body) end
end
