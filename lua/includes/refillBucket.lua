-- A token bucket's tokens at `now` (ms): `tokens` were left at `at` (ms), and it refills at `perMs` a
-- millisecond up to `capacity`. A bucket never written (nil) is full.
local function refillBucket(tokens, at, now, capacity, perMs)
  if not tokens then return capacity end
  return math.min(capacity, tonumber(tokens) + math.max(0, now - tonumber(at)) * perMs)
end
