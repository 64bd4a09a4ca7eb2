-- The ms of an event envelope's `evt_` id: its first 10 Crockford base32 characters, from the caller's
-- clock (src/ids.ts). appendEvent files the entry under that ms.
local EVENT_ID_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'

local function eventMs(eventJson)
  local at = string.find(eventJson, '"id":"evt_', 1, true)
  if not at then error('appendEvent: the envelope has no evt_ id') end
  local ms = 0
  for i = at + 10, at + 19 do
    ms = ms * 32 + string.find(EVENT_ID_ALPHABET, string.sub(eventJson, i, i), 1, true) - 1
  end
  return ms
end
