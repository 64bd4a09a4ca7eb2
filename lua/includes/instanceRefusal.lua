--- @include "refuse"
-- Why an access may not use this workspace instance, or nil: gone or expired, opened by another
-- access (both workspace_expired: the caller learns nothing of another's instance), or opened
-- when the access held other rights (access_changed).
local function instanceRefusal(instance, now, keyId, access)
  if not instance.expires_at or tonumber(instance.expires_at) <= now or instance.key_id ~= keyId then
    return refuse('workspace_expired')
  end
  if instance.access ~= access then return refuse('access_changed') end
  return nil
end
