-- The status of the outbound message a hash holds, or nil: no such message (no status), or a received
-- one. A message's hash keeps no direction: its status tells it (directionOf in actors/stored-records.ts).
local function outboundStatus(messageKey)
  local status = redis.call('HGET', messageKey, 'status')
  if status and status ~= 'received' then return status end
  return nil
end
