--[[
  Which of the given documents each posting holds. A query reads its postings from their newest end
  only (actors/search.ts); a thread it shows may also hold older messages, and whether they match is
  then asked here: a binary search of each number in its posting (postingHolds), instead of reading
  the postings whole (a common word's is hundreds of kilobytes in a large space). Reads only.
  KEYS[1 ..] postings  strings of 3-byte big-endian document numbers, ascending
  ARGV[1 ..] documents: list  one a key of KEYS[1 ..]: the documents asked of it, decimal numbers, space-separated
  Returns { held: string[] } // one a key: a character per document asked of it, 1 held, 0 not
  Events: none.
]]
--- @include "postingHolds"
local held = {}
for i, key in ipairs(KEYS) do
  local count = math.floor(redis.call('STRLEN', key) / 3)
  local flags = {}
  for doc in string.gmatch(ARGV[i], '%d+') do
    flags[#flags + 1] = postingHolds(key, count, tonumber(doc)) and '1' or '0'
  end
  held[i] = table.concat(flags)
end
return cjson.encode({ held = held })
