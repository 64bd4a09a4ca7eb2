-- Takes every line id body under `below` out of the journal index list of `prefix` (journal/moveDays:
-- the days moved into the blob store). Bodies ascend across buckets, so they are the list's first ones:
-- the sealed buckets whose bound is under `below` go (journalBucket counts them under every body, and
-- the readers' walk, whose lower bound is the moved days' end, stops there), but for the last one,
-- which keeps its bound alone (the open bucket's header names it: the search for a body at or under
-- it lands there); the bucket of `below` and, when it is the list's last, the open bucket lose their
-- first bodies. Earlier moves dropped the buckets under theirs: the walk down stops at the first one
-- gone. A list of one open bucket left empty goes.
--- @include "journalBucket"
local function journalIndexDropBelow(indexKey, prefix, below)
  local open = redis.call('HGET', indexKey, prefix)
  if not open then return end
  -- The value without its bodies under `below`, its header (the first `headLength` characters) kept.
  local function kept(value, headLength)
    local at = headLength + 1
    while at <= #value and string.sub(value, at, at + 19) < below do at = at + 20 end
    return string.sub(value, 1, headLength) .. string.sub(value, at)
  end
  local bar = string.find(open, '|', 1, true)
  local n = tonumber(string.sub(open, 1, bar - 1))
  local headLength = n > 0 and bar + 20 or bar
  if n == 0 or string.sub(open, bar + 1, headLength) < below then
    local value = kept(open, headLength)
    if n == 0 and #value == headLength then
      redis.call('HDEL', indexKey, prefix)
    elseif #value < #open then
      redis.call('HSET', indexKey, prefix, value)
    end
  end
  if n == 0 then return end
  for k = journalBucket(indexKey, prefix, n, below), 1, -1 do
    local field = prefix .. '#' .. k
    local value = redis.call('HGET', indexKey, field)
    if not value then return end
    local left = kept(value, 20)
    if k < n and string.sub(value, 1, 20) < below then
      redis.call('HDEL', indexKey, field)
    elseif #left < #value then
      redis.call('HSET', indexKey, field, left)
    end
  end
end
