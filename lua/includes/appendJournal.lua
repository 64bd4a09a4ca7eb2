-- Journal line writer: the line's compact stored form (built by the caller, actors/journal.ts; text
-- rendered at read time) under its id, and its index entries (journalIndexMembers) in one ZADD. Line
-- ids are time-ordered, so a day or a page is a lexicographic range of one sorted set.
--- @include "journalIndexMembers"
local function appendJournal(journalKey, indexKey, lineId, lineJson, refsJson)
  redis.call('HSET', journalKey, lineId, lineJson)
  local scored = {}
  for _, member in ipairs(journalIndexMembers(lineId, refsJson)) do
    scored[#scored + 1] = '0'
    scored[#scored + 1] = member
  end
  redis.call('ZADD', indexKey, unpack(scored))
end
