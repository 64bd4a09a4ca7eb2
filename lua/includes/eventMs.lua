-- The ms of a packed event's `evt_` id (actors/events.ts prepareEvent): the first 10 Crockford base32
-- characters of the id's body, which starts the packed event, from the caller's clock (src/ids.ts).
-- appendEvent files the entry under that ms.
local EVENT_ID_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'

local function eventMs(event)
  local ms = 0
  for i = 1, 10 do
    local digit = string.find(EVENT_ID_ALPHABET, string.sub(event, i, i), 1, true)
    if not digit then error('appendEvent: the event does not start with an evt_ id body') end
    ms = ms * 32 + digit - 1
  end
  return ms
end
