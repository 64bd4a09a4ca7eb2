--[[
  A page of the space's event stream for event_feed, in one reply Node reads as one string: the
  envelopes spliced as they are stored, never decoded here. Read only. Nothing to wake: "webhook" is false.
  KEYS[1] events  stream of the space's events (field e = envelope JSON)
  ARGV[1] the range's start: '-' (the oldest kept) or '(<stream id>' (after that entry)
  ARGV[2] entries at most
  Returns {"webhook":false,"ids":["<stream id>",...],"envelopes":[<envelope>,...],"sizes":[<bytes>,...]},
  in stream order (sizes: each envelope's JSON as stored, for event_feed's page bound).
  Events: none.
]]
local entries = redis.call('XRANGE', KEYS[1], ARGV[1], '+', 'COUNT', ARGV[2])
local ids, envelopes, sizes = {}, {}, {}
for i, entry in ipairs(entries) do
  ids[i] = '"' .. entry[1] .. '"'
  envelopes[i] = entry[2][2]
  sizes[i] = tostring(#entry[2][2])
end
return '{"webhook":false,"ids":[' .. table.concat(ids, ',') .. '],"envelopes":[' .. table.concat(envelopes, ',') ..
  '],"sizes":[' .. table.concat(sizes, ',') .. ']}'
