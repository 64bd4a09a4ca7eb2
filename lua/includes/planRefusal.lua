-- `payment_required` when the space has no plan (a message to a third party needs one), else nil.
--- @include "refuse"
local function planRefusal(spaceKey)
  if (redis.call('HGET', spaceKey, 'plan') or 'none') == 'none' then return refuse('payment_required') end
  return nil
end
