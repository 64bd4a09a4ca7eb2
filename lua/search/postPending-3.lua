--[[
  Files a batch of the search index's pending entries (lua/includes/indexMessage.lua) in their inbox's
  and words' postings: the first `count` entries of the list, in order, each one's number appended to
  the posting of its inbox and of each of its words, one APPEND a posting for the whole batch. A word
  met for the first time joins `words`, the set the last word of a query is completed from; a word of
  one document keeps its number as a field of `once` (a string key of its own cost it some 100 bytes of
  Redis, for 3 bytes of number), and its second document moves it to its own posting. The caller read
  the entries to name their postings' keys; another caller may have filed them since: the script reads
  them again, and answers `moved` without writing when they are not the ones it was given keys for.
  KEYS[1] pending  list of pending entries: a document number (3 bytes), then "<inbox id> <word> ..."
  KEYS[2] words    sorted set of the indexed words
  KEYS[3] once     hash word -> its only document number, for a word of one document
  KEYS[4 ..] postings  strings of 3-byte document numbers: of each name of ARGV[3 ..], in its order
  ARGV[1] count: number  entries to file, from the list's head
  ARGV[2] first: number  the first entry's document number
  ARGV[3 ..] names: list  the name of each posting: `i:<inbox id>` for an inbox's, the word for a word's
  Returns { filed: number } | { moved: true }
  Events: none.
]]
local count = tonumber(ARGV[1])
local entries = redis.call('LRANGE', KEYS[1], '0', tostring(count - 1))
local function docOf(entry) return string.byte(entry, 1) * 65536 + string.byte(entry, 2) * 256 + string.byte(entry, 3) end
if #entries < count or docOf(entries[1]) ~= tonumber(ARGV[2]) then return cjson.encode({ moved = true }) end

local keyOf = {}
for i = 3, #ARGV do keyOf[ARGV[i]] = i + 1 end
local postings, names = {}, {}
local function add(name, posting)
  local key = keyOf[name]
  if not key then return false end
  if not postings[key] then
    postings[key] = {}
    names[#names + 1] = name
  end
  local list = postings[key]
  list[#list + 1] = posting
  return true
end
for _, entry in ipairs(entries) do
  local posting = string.sub(entry, 1, 3)
  local first = true
  for name in string.gmatch(string.sub(entry, 4), '%S+') do
    if not add(first and 'i:' .. name or name, posting) then return cjson.encode({ moved = true }) end
    first = false
  end
end

for _, name in ipairs(names) do
  local key = keyOf[name]
  local added = table.concat(postings[key])
  -- One command for a posting that exists, the common case; APPEND created the key otherwise.
  if redis.call('APPEND', KEYS[key], added) == #added and string.sub(name, 1, 2) ~= 'i:' then
    local held = redis.call('HGET', KEYS[3], name)
    if held then
      redis.call('SET', KEYS[key], held .. added)
      redis.call('HDEL', KEYS[3], name)
    else
      redis.call('ZADD', KEYS[2], '0', name)
      if #added == 3 then
        redis.call('DEL', KEYS[key])
        redis.call('HSET', KEYS[3], name, added)
      end
    end
  end
end
redis.call('LTRIM', KEYS[1], tostring(count), '-1')
return cjson.encode({ filed = count })
