-- Journal line writer: the line JSON (built by the caller, text rendered at read time) under its id,
-- indexed under `*` and under each ref (an object id, `c:<email>`, `d:<domain>`) as "<ref> <line id>".
-- Line ids are time-ordered, so a day or a page is a lexicographic range of one sorted set.
local function appendJournal(journalKey, indexKey, lineId, lineJson, refsJson)
  redis.call('HSET', journalKey, lineId, lineJson)
  redis.call('ZADD', indexKey, 0, '* ' .. lineId)
  for _, ref in ipairs(cjson.decode(refsJson)) do
    redis.call('ZADD', indexKey, 0, ref .. ' ' .. lineId)
  end
end
