-- Whether a posting (`count` 3-byte big-endian numbers, ascending) holds `doc`: a binary search, by
-- reads of 3 bytes until the range is at most 1,024 numbers, then in that range read at once (one
-- GETRANGE of 3 KB costs about what one of 3 bytes does, and a step in a Lua string far less than a
-- redis.call): about 7 calls for a posting of 100,000 numbers instead of 17.
local function postingHolds(key, count, doc)
  local low, high = 0, count - 1
  local range, rangeLow = nil, 0
  while low <= high do
    if not range and high - low < 1024 then
      range, rangeLow = redis.call('GETRANGE', key, low * 3, high * 3 + 2), low
    end
    local middle = math.floor((low + high) / 2)
    local a, b, c
    if range then
      local at = (middle - rangeLow) * 3 + 1
      a, b, c = string.byte(range, at, at + 2)
    else
      a, b, c = string.byte(redis.call('GETRANGE', key, middle * 3, middle * 3 + 2), 1, 3)
    end
    local number = a * 65536 + b * 256 + c
    if number == doc then return true end
    if number < doc then low = middle + 1 else high = middle - 1 end
  end
  return false
end
