-- The line id bodies of the journal index list of `prefix` below `below` and not below `from`, newest
-- first, at most `count` of them ('' bounds: none). The walk starts in the bucket holding the bodies
-- just below the upper bound (journalBucketOf: a binary search over the sealed buckets, so a cursor
-- deep in a long history costs as little as the first page) and goes down bucket by bucket; a sealed
-- bucket whose bound is under `from` ends it, and so does one a move of old days dropped
-- (journalIndexDropBelow): the readers' lower bound is at or above the moved days' end.
--- @include "journalBucketOf"
local function journalWalk(indexKey, prefix, below, from, count)
  local found = {}
  -- '~' sorts after every body: no upper bound starts in the open bucket.
  local k, _, _, value, headLength = journalBucketOf(indexKey, prefix, below == '' and '~' or below, redis.call('HGET', indexKey, prefix))
  while k do
    for at = #value - 19, headLength + 1, -20 do
      local body = string.sub(value, at, at + 19)
      if body < from then return found end
      if below == '' or body < below then
        found[#found + 1] = body
        if #found == count then return found end
      end
    end
    k = k - 1
    if k < 1 then return found end
    value, headLength = redis.call('HGET', indexKey, prefix .. '#' .. k), 20
    if not value or string.sub(value, 1, 20) < from then return found end
  end
  return found
end
