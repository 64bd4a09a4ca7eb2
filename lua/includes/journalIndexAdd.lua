-- Files a line id body (the id without its `log_`) in the journal index list of `prefix` (`* ` for
-- every line, else an object's: indexPrefix in actors/journal.ts). A list is a few fields of the index
-- hash: an open bucket and sealed ones of 64 bodies; the body is inserted in order, nearly always at
-- the open bucket's end (one concatenation). A full open bucket is sealed under the next number, its
-- largest body its bound. `open` is the list's open bucket as the caller read it (false when absent);
-- the fields to write are added to `writes` (name, value, ...): the caller writes every list's in one HSET.
--- @include "journalBucketOf"
local function journalIndexAdd(indexKey, prefix, body, open, writes)
  local k, n, field, value, headLength = journalBucketOf(indexKey, prefix, body, open)
  if not k then
    writes[#writes + 1] = prefix
    writes[#writes + 1] = '0|' .. body
    return
  end
  local at = #value
  while at > headLength and string.sub(value, at - 19, at) > body do at = at - 20 end
  value = at == #value and value .. body or string.sub(value, 1, at) .. body .. string.sub(value, at + 1)
  if k > n and #value - headLength >= 64 * 20 then
    local bound = string.sub(value, -20)
    writes[#writes + 1] = prefix .. '#' .. k
    writes[#writes + 1] = bound .. string.sub(value, headLength + 1)
    writes[#writes + 1] = prefix
    writes[#writes + 1] = k .. '|' .. bound
  else
    writes[#writes + 1] = field
    writes[#writes + 1] = value
  end
end
