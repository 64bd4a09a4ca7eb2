-- A key's daily cap (`cap` 0: none): refused until the next Paris midnight once the key created `cap`
-- messages today (`keySentKey`: key id -> messages created today), else nil.
--- @include "refuse"
local function keyCapRefusal(keySentKey, keyId, cap, now, nextMidnight)
  if cap <= 0 or tonumber(redis.call('HGET', keySentKey, keyId) or '0') < cap then return nil end
  return refuse('key_daily_cap', { retry_after_seconds = math.max(math.ceil((nextMidnight - now) / 1000), 1) })
end
