-- Journal line writer: the line's compact stored form (built by the caller, actors/journal.ts; text
-- rendered at read time) under its id, indexed under `* ` and under each ref's prefix (an object id, or
-- `c:<email> `, `d:<domain> `: indexPrefix in actors/journal.ts) followed by the line id's body (the id
-- without its `log_`), all in one ZADD. Line ids are time-ordered, so a day or a page is a
-- lexicographic range of one sorted set.
local function appendJournal(journalKey, indexKey, lineId, lineJson, refsJson)
  redis.call('HSET', journalKey, lineId, lineJson)
  local body = string.sub(lineId, 5)
  local members = { '0', '* ' .. body }
  for _, prefix in ipairs(cjson.decode(refsJson)) do
    members[#members + 1] = '0'
    members[#members + 1] = prefix .. body
  end
  redis.call('ZADD', indexKey, unpack(members))
end
