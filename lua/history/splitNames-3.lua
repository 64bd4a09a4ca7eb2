--[[
  Splits one bucket of a space's history names (actors/history-names.ts): the names hash into
  2 x buckets once the buckets hold more than NAMES_PER_BUCKET on average (a bucket stays a small
  listpack hash, some 14 bytes a name). Bucket b's names whose hash says b + buckets move there; the
  split advances one bucket a call, so readers look in the new place for buckets already split. The
  first call (b = 0) starts the growth; the last one ends it. Only under the layout the caller read.
  KEYS[1] history  hash of the space's history: buckets, split, entries
  KEYS[2] from     the bucket split (b)
  KEYS[3] to       its new sibling (b + buckets)
  ARGV[1] buckets: number  the bucket count before the growth
  ARGV[2] bucket: number   b, the bucket to split: the layout's split, 0 to start the growth
  Returns { split: number } | { stale: true }
  Events: none.
]]
--- @include "namesLayout"
local buckets, bucket = tonumber(ARGV[1]), tonumber(ARGV[2])
local expected = ARGV[1] .. ' ' .. (bucket == 0 and '' or ARGV[2])
if namesLayout(KEYS[1]) ~= expected then return cjson.encode({ stale = true }) end
local moved = {}
local flat = redis.call('HGETALL', KEYS[2])
for i = 1, #flat, 2 do
  local a, b, c = string.byte(flat[i], 1, 3)
  if (a * 65536 + b * 256 + c) % (2 * buckets) ~= bucket then
    moved[#moved + 1] = flat[i]
    moved[#moved + 1] = flat[i + 1]
  end
end
if #moved > 0 then
  redis.call('HSET', KEYS[3], unpack(moved))
  local fields = {}
  for i = 1, #moved, 2 do fields[#fields + 1] = moved[i] end
  redis.call('HDEL', KEYS[2], unpack(fields))
end
if bucket + 1 == buckets then
  redis.call('HSET', KEYS[1], 'buckets', tostring(2 * buckets))
  redis.call('HDEL', KEYS[1], 'split')
else
  redis.call('HSET', KEYS[1], 'split', tostring(bucket + 1))
end
return cjson.encode({ split = #moved / 2 })
