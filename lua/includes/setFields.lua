-- Writes a hash from a JSON object of string values, plus extra field/value pairs, in one HSET:
-- one command instead of one per field (the send path writes some thirty fields).
local function setFields(key, json, extra)
  local args = {}
  for field, value in pairs(cjson.decode(json)) do
    args[#args + 1] = field
    args[#args + 1] = value
  end
  for i = 1, #extra do args[#args + 1] = extra[i] end
  if #args > 0 then redis.call('HSET', key, unpack(args)) end
end
