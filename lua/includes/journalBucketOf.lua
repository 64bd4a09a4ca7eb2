-- Where a line id body belongs in the journal index list of `prefix`: nil when the list does not
-- exist, else its bucket number k (n + 1 for the open bucket), the number n of sealed buckets, the
-- bucket's field (`prefix` for the open bucket, `prefix#k` for a sealed one), its value and the length of its header (kept as it is when its bodies
-- change); its bodies (20 characters each, ascending) follow the header. The open bucket's header is
-- "<n>|" then, once a bucket was sealed, the bound of the last one; a sealed bucket's (`prefix#k`) is
-- its bound. A body above the last bound goes to the open bucket; a late one (a line drawn before a
-- bucket was sealed, written after) to the sealed bucket of its range, so bodies stay in order across
-- buckets. Values are passed whole, not cut into header and bodies: a cut copies the string.
-- `open` is the list's open bucket (the field `prefix`) as the caller read it: false when absent.
--- @include "journalBucket"
local function journalBucketOf(indexKey, prefix, body, open)
  if not open then return nil end
  local bar = string.find(open, '|', 1, true)
  local n = tonumber(string.sub(open, 1, bar - 1))
  local headLength = n > 0 and bar + 20 or bar
  if n == 0 or body > string.sub(open, bar + 1, headLength) then return n + 1, n, prefix, open, headLength end
  local k = journalBucket(indexKey, prefix, n, body)
  local field = prefix .. '#' .. k
  return k, n, field, redis.call('HGET', indexKey, field), 20
end
