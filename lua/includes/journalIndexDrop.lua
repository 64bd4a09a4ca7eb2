-- Takes a line id body out of the journal index list of `prefix` (space/dropCode). The bucket keeps its
-- header, so bounds, and the search for later bodies, do not move; an emptied list of one open bucket goes.
--- @include "journalBucketOf"
local function journalIndexDrop(indexKey, prefix, body)
  local k, n, field, value, headLength = journalBucketOf(indexKey, prefix, body, redis.call('HGET', indexKey, prefix))
  if not k then return end
  for at = headLength + 1, #value - 19, 20 do
    if string.sub(value, at, at + 19) == body then
      value = string.sub(value, 1, at - 1) .. string.sub(value, at + 20)
      if n == 0 and #value == headLength then
        redis.call('HDEL', indexKey, field)
      else
        redis.call('HSET', indexKey, field, value)
      end
      return
    end
  end
end
