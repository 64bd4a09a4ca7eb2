-- HGETALL as a Lua table (empty table when the hash does not exist).
local function hashToTable(key)
  local flat = redis.call('HGETALL', key)
  local out = {}
  for i = 1, #flat, 2 do out[flat[i]] = flat[i + 1] end
  return out
end
