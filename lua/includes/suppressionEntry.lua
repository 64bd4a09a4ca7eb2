-- The space's suppression list, by address and by `@domain`: the decoded entry that blocks the
-- recipient, or nil.
local function suppressionEntry(suppressionsKey, to, toDomain)
  local entry = redis.call('HGET', suppressionsKey, to) or redis.call('HGET', suppressionsKey, toDomain)
  return entry and cjson.decode(entry) or nil
end
