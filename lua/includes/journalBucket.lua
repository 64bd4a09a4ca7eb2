-- The sealed bucket of a journal index list that holds (or would hold) a line id body: the first one,
-- among `prefix#1` .. `prefix#n`, whose bound (its first 20 characters: the largest body it held when
-- it was sealed) is not below the body. Bounds ascend with k, so this is a binary search: log2(n) reads
-- of about 1.3 KB, whatever the list's length (docs/architecture.md, "Journal layout"). A bucket that a
-- move of old days dropped (journalIndexDropBelow: never the last) counts as under every body.
local function journalBucket(indexKey, prefix, n, body)
  local low, high = 1, n
  while low < high do
    local mid = math.floor((low + high) / 2)
    if string.sub(redis.call('HGET', indexKey, prefix .. '#' .. mid) or '', 1, 20) >= body then high = mid else low = mid + 1 end
  end
  return low
end
