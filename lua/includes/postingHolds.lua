-- Whether a posting (`count` 3-byte big-endian numbers, ascending) holds `doc`: a binary search, one
-- GETRANGE of 3 bytes a step (at most 24 steps: 3 bytes number 16,777,216 documents).
local function postingHolds(key, count, doc)
  local low, high = 0, count - 1
  while low <= high do
    local middle = math.floor((low + high) / 2)
    local a, b, c = string.byte(redis.call('GETRANGE', key, middle * 3, middle * 3 + 2), 1, 3)
    local number = a * 65536 + b * 256 + c
    if number == doc then return true end
    if number < doc then low = middle + 1 else high = middle - 1 end
  end
  return false
end
