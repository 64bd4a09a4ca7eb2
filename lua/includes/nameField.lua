-- A history name's field as its bucket stores it (actors/history-names.ts): the 6 bytes its 12 hex
-- characters stand for. The scripts take names as hex (their JSON argument carries text only); a raw
-- field costs a listpack 8 bytes where its hex costs 14.
local function nameField(hex)
  return (string.gsub(hex, '..', function(pair) return string.char(tonumber(pair, 16)) end))
end
