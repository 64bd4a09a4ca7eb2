-- Journal line writer: the line's stored form (positional JSON built by the caller, actors/journal.ts;
-- text rendered at read time) under its id,
-- indexed under `*` and under each ref (an object id, `c:<email>`, `d:<domain>`) as "<ref> <line id>",
-- all in one ZADD. Line ids are time-ordered, so a day or a page is a lexicographic range of one
-- sorted set.
local function appendJournal(journalKey, indexKey, lineId, lineJson, refsJson)
  redis.call('HSET', journalKey, lineId, lineJson)
  local members = { '0', '* ' .. lineId }
  for _, ref in ipairs(cjson.decode(refsJson)) do
    members[#members + 1] = '0'
    members[#members + 1] = ref .. ' ' .. lineId
  end
  redis.call('ZADD', indexKey, unpack(members))
end
