-- Whether an inbox may send now: a deleted one does not exist for the caller, a suspended one and one
-- whose own domain is not (or no longer) verified are refused. Returns the refusal, or nil.
--- @include "refuse"
local function senderRefusal(inbox, domainKey)
  if not inbox.id or inbox.status == 'deleted' then return refuse('not_found') end
  if inbox.status == 'suspended' then return refuse('inbox_suspended', { reason = inbox.status_reason }) end
  if inbox.shared ~= '1' then
    local domainStatus = redis.call('HGET', domainKey, 'status')
    if domainStatus == 'suspended' then return refuse('domain_suspended') end
    if domainStatus ~= 'verified' then return refuse('domain_not_verified') end
  end
  return nil
end
