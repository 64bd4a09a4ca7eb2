-- Whether a posting (`count` 3-byte big-endian numbers, ascending) holds `doc`: a binary search, by
-- reads of 3 bytes until the range is at most 1,024 numbers, then in that range read at once (one
-- GETRANGE of 3 KB costs about what one of 3 bytes does, and a step in a Lua string far less than a
-- redis.call): about 7 calls for a posting of 100,000 numbers instead of 17.
local function postingHolds(key, count, doc)
  local low, high = 0, count - 1
  while high - low >= 1024 do
    local middle = math.floor((low + high) / 2)
    local a, b, c = string.byte(redis.call('GETRANGE', key, middle * 3, middle * 3 + 2), 1, 3)
    local number = a * 65536 + b * 256 + c
    if number == doc then return true end
    if number < doc then low = middle + 1 else high = middle - 1 end
  end
  if low > high then return false end
  local range = redis.call('GETRANGE', key, low * 3, high * 3 + 2)
  local first, last = 0, high - low
  while first <= last do
    local middle = math.floor((first + last) / 2)
    local a, b, c = string.byte(range, middle * 3 + 1, middle * 3 + 3)
    local number = a * 65536 + b * 256 + c
    if number == doc then return true end
    if number < doc then first = middle + 1 else last = middle - 1 end
  end
  return false
end
