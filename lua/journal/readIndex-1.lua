--[[
  A page of one journal index list, newest first: the line id bodies of `prefix` below ARGV[2] and not
  below ARGV[3], at most ARGV[4] of them (list_events, actors/journal.ts). The walk starts in the bucket
  holding the bodies just below the upper bound (found by journalBucketOf: a binary search over the
  sealed buckets, so a cursor deep in a long history costs as little as the first page) and goes down
  bucket by bucket. Reads only.
  KEYS[1] journalIndex  hash: the index lists of line id bodies (journalIndexAdd)
  ARGV[1] prefix: string  the list's prefix (`* `, an object id, `c:<email> `, `d:<domain> `)
  ARGV[2] below: string   upper bound, excluded: a body or the start of one (a time); '' for none
  ARGV[3] from: string    lower bound, included: the same; '' for none
  ARGV[4] count: number   how many bodies at most
  Returns { bodies: string } // the bodies, 20 characters each, newest first
  Events: none.
]]
--- @include "journalBucketOf"
local below, from, count = ARGV[2], ARGV[3], tonumber(ARGV[4])
local found = {}
-- The page's bodies into `found`, newest first; stops at the count, or at a body under the lower bound.
local function walk()
  -- '~' sorts after every body: no upper bound starts in the open bucket.
  local k, _, _, value, headLength = journalBucketOf(KEYS[1], ARGV[1], below == '' and '~' or below, redis.call('HGET', KEYS[1], ARGV[1]))
  while k do
    for at = #value - 19, headLength + 1, -20 do
      local body = string.sub(value, at, at + 19)
      if body < from then return end
      if below == '' or body < below then
        found[#found + 1] = body
        if #found == count then return end
      end
    end
    k = k - 1
    if k < 1 then return end
    value, headLength = redis.call('HGET', KEYS[1], ARGV[1] .. '#' .. k), 20
    -- A bucket whose bound is below the lower bound holds nothing in range, nor do those under it.
    if string.sub(value, 1, 20) < from then return end
  end
end
walk()
return cjson.encode({ bodies = table.concat(found) })
