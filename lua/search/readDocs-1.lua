--[[
  The records of the given documents (`<message id body><thread id body>`, lua/includes/indexMessage.lua),
  read where they sit now: the records' front may have been cut since the caller last looked (docsCut).
  A document moved to a search segment (marked, or cut) has none. Reads only.
  KEYS[1] docs  string of the index's 40-character document records
  ARGV[1 ..] documents: list  document numbers
  Returns { records: string[] } // one a document, '' when it has none
  Events: none.
]]
--- @include "docsCut"
local cut = docsCut(KEYS[1])
local records = {}
for i, doc in ipairs(ARGV) do
  local at = tonumber(doc) - cut
  local record = at >= 0 and redis.call('GETRANGE', KEYS[1], at * 40, at * 40 + 39) or ''
  local first = string.sub(record, 1, 1)
  records[i] = (first == '-' or first == '#') and '' or record
end
return cjson.encode({ records = records })
