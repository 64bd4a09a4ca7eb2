-- A refusal from the error table (src/errors.ts), with an optional hint object.
local function refuse(code, hint)
  if hint then return cjson.encode({ error = code, hint = hint }) end
  return cjson.encode({ error = code })
end
