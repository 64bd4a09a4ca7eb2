--[[
  Registers a search segment written to the blob store (actors/search-segments.ts): its entry joins
  its inbox's list, and its blob the space's blob set (the sweep then keeps it). A merged segment
  replaces the entries it was made from, whose blobs leave the set (the sweep removes them); answers
  `moved` without writing when one of them is no longer listed (another merge came first). An entry
  already listed is left as it is: a second call after a crash writes nothing.
  KEYS[1] segments  hash inbox id -> its segments' entries, comma-separated
  KEYS[2] blobs     set of the space's blob hashes (base64url)
  ARGV[1] inbox: string  the inbox id
  ARGV[2] entry: string  the segment: "<blob hash, base64url> <first document> <last document> <documents>"
  ARGV[3 ..] replaced: list  entries the segment merges (none for a new one)
  Returns { shelved: number } | { moved: true } // `shelved`: the inbox's segments now
  Events: none.
]]
local held = redis.call('HGET', KEYS[1], ARGV[1]) or ''
local entries, listed = {}, {}
for entry in string.gmatch(held, '[^,]+') do
  entries[#entries + 1] = entry
  listed[entry] = true
end
local replaced = {}
for i = 3, #ARGV do
  if not listed[ARGV[i]] then return cjson.encode({ moved = true }) end
  replaced[ARGV[i]] = true
end
local hashOf = function(entry) return string.match(entry, '^%S+') end
local kept = {}
for _, entry in ipairs(entries) do
  if replaced[entry] then redis.call('SREM', KEYS[2], hashOf(entry)) else kept[#kept + 1] = entry end
end
if not listed[ARGV[2]] then kept[#kept + 1] = ARGV[2] end
redis.call('SADD', KEYS[2], hashOf(ARGV[2]))
redis.call('HSET', KEYS[1], ARGV[1], table.concat(kept, ','))
return cjson.encode({ shelved = #kept })
