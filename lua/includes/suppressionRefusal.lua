-- The refusal when the recipient is on the space's suppression list (by address or `@domain`), or nil.
--- @include "refuse"
--- @include "suppressionEntry"
local function suppressionRefusal(suppressionsKey, to, toDomain)
  local entry = suppressionEntry(suppressionsKey, to, toDomain)
  if entry then return refuse('recipient_suppressed', { reason = entry.reason }) end
  return nil
end
