-- Files a line id body (the id without its `log_`) in the journal index list of `prefix` (`* ` for
-- every line, else an object's: indexPrefix in actors/journal.ts). A list is a few fields of the index
-- hash: an open bucket and sealed ones of 64 bodies; the body is inserted in order, nearly always at
-- the open bucket's end (one concatenation). A full open bucket is sealed under the next number, its
-- largest body its bound.
--- @include "journalBucketOf"
local function journalIndexAdd(indexKey, prefix, body)
  local k, n, field, value, headLength = journalBucketOf(indexKey, prefix, body)
  if not k then
    redis.call('HSET', indexKey, prefix, '0|' .. body)
    return
  end
  local at = #value
  while at > headLength and string.sub(value, at - 19, at) > body do at = at - 20 end
  value = at == #value and value .. body or string.sub(value, 1, at) .. body .. string.sub(value, at + 1)
  if k > n and #value - headLength >= 64 * 20 then
    local bound = string.sub(value, -20)
    redis.call('HSET', indexKey, prefix .. '#' .. k, bound .. string.sub(value, headLength + 1), prefix, k .. '|' .. bound)
  else
    redis.call('HSET', indexKey, field, value)
  end
end
