-- The space's suppression list, by address and by `@domain`: the refusal when the recipient is on it,
-- or nil.
--- @include "refuse"
local function suppressionRefusal(suppressionsKey, to, toDomain)
  local entry = redis.call('HGET', suppressionsKey, to) or redis.call('HGET', suppressionsKey, toDomain)
  if entry then return refuse('recipient_suppressed', { reason = cjson.decode(entry).reason }) end
  return nil
end
