-- The refusal when a recipient is on the space's suppression list (by address or `@domain`), or nil.
-- `recipients`: every address of the message, space-separated, `to` first; when there are several the
-- refusal names the one blocked.
--- @include "refuse"
--- @include "suppressionEntry"
local function suppressionRefusal(suppressionsKey, recipients)
  local several = string.find(recipients, ' ', 1, true) ~= nil
  for address in string.gmatch(recipients, '%S+') do
    local entry = suppressionEntry(suppressionsKey, address, '@' .. string.match(address, '[^@]*$'))
    if entry then return refuse('recipient_suppressed', { reason = entry.reason, recipient = several and address or nil }) end
  end
  return nil
end
