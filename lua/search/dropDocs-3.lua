--[[
  Drops documents from the live search index once a search segment holds them (actors/search-segments.ts):
  their numbers leave the postings, the threads' numbers and `once`, and their records are overwritten
  by a mark (40 "-"), which searches read as "not live" and lua/search/cutDocs removes from the front.
  A drop too large for one call is made in several, the threads' numbers and the marks in the last:
  until then the documents are still found live, and a search shows each once.
  The caller named every posting holding them, from their messages' words; a posting it missed (an
  older version of a corrected draft had other words) keeps 3 bytes a document that search skips, its
  record marked. Dropping a number a posting no longer holds writes nothing: a second call after a
  crash finishes the first.
  KEYS[1] docs     string of the index's 40-character document records
  KEYS[2] words    sorted set of the indexed words
  KEYS[3] once     hash word -> its only document number, for a word of one document
  KEYS[4 ..] targets  one an entry of ARGV[3 ..], in its order: the thread's hash, else a string of 3-byte document numbers
  ARGV[1] documents: string  the documents dropped, decimal numbers, space-separated
  ARGV[2] mark: number  1: mark their records too (the last call of a drop made in several)
  ARGV[3 ..] entries: list  of each target: its name (`h:` a thread's hash, field `docs`; `t:` a thread's posting; `i:<inbox id>` an inbox's; else the word of a word's), then the documents dropped from it, ascending, space-separated
  Returns { marked: number } // records marked now
  Events: none.
]]
--- @include "docsCut"

-- The posting without the `moved` numbers it holds: a binary search for each, then one concatenation.
local function without(posting, moved)
  local count = #posting / 3
  local cuts = {}
  for _, doc in ipairs(moved) do
    local low, high = 0, count - 1
    while low <= high do
      local middle = math.floor((low + high) / 2)
      local a, b, c = string.byte(posting, middle * 3 + 1, middle * 3 + 3)
      local number = a * 65536 + b * 256 + c
      if number == doc then
        cuts[#cuts + 1] = middle
        break
      end
      if number < doc then low = middle + 1 else high = middle - 1 end
    end
  end
  if #cuts == 0 then return nil end
  local pieces, from = {}, 0
  for _, at in ipairs(cuts) do
    pieces[#pieces + 1] = string.sub(posting, from * 3 + 1, at * 3)
    from = at + 1
  end
  pieces[#pieces + 1] = string.sub(posting, from * 3 + 1)
  return table.concat(pieces)
end

for i = 4, #KEYS do
  local key, moved = KEYS[i], {}
  local name = string.match(ARGV[i - 1], '^%S+')
  for doc in string.gmatch(string.sub(ARGV[i - 1], #name + 1), '%d+') do moved[#moved + 1] = tonumber(doc) end
  local kind = string.sub(name, 1, 2)
  if kind == 'h:' then
    local held = redis.call('HGET', key, 'docs')
    local left = held and without(held, moved)
    if left == '' then redis.call('HDEL', key, 'docs') elseif left then redis.call('HSET', key, 'docs', left) end
  else
    local held = redis.call('GET', key)
    local left = held and without(held, moved)
    if left == '' then
      redis.call('DEL', key)
      if kind ~= 't:' and kind ~= 'i:' then redis.call('ZREM', KEYS[2], name) end
    elseif left then
      redis.call('SET', key, left)
    elseif not held and kind ~= 't:' and kind ~= 'i:' then
      local only = redis.call('HGET', KEYS[3], name)
      if only and without(only, moved) == '' then
        redis.call('HDEL', KEYS[3], name)
        redis.call('ZREM', KEYS[2], name)
      end
    end
  end
end

if ARGV[2] ~= '1' then return cjson.encode({ marked = 0 }) end
local cut = docsCut(KEYS[1])
local records = redis.call('STRLEN', KEYS[1]) / 40
local mark = string.rep('-', 40)
local marked = 0
for doc in string.gmatch(ARGV[1], '%d+') do
  doc = tonumber(doc)
  -- Below the cut, or the header itself (document S): gone already.
  local at = doc - cut
  local first = at >= 0 and at < records and redis.call('GETRANGE', KEYS[1], at * 40, at * 40)
  if first and first ~= '-' and first ~= '#' then
    redis.call('SETRANGE', KEYS[1], at * 40, mark)
    marked = marked + 1
  end
end
return cjson.encode({ marked = marked })
