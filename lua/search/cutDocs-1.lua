--[[
  Cuts the records of documents moved to search segments from the front of the index's records
  (docsCut): records 0 to `upTo` - `cut` give way to one header naming `upTo`. The caller checked they
  are all marked (lua/search/dropDocs), and a mark is never undone; answers `moved` without writing
  when another cut came first.
  KEYS[1] docs  string of the index's 40-character document records
  ARGV[1] cut: number  the last document cut as the caller read it (docsCut; 0 for none)
  ARGV[2] upTo: number  the last document to cut
  Returns { cut: number } | { moved: true } // `cut`: the records left
  Events: none.
]]
--- @include "docsCut"
if docsCut(KEYS[1]) ~= tonumber(ARGV[1]) then return cjson.encode({ moved = true }) end
local upTo = tonumber(ARGV[2])
local rest = redis.call('GETRANGE', KEYS[1], (upTo - tonumber(ARGV[1]) + 1) * 40, '-1')
redis.call('SET', KEYS[1], string.format('#%039d', upTo) .. rest)
return cjson.encode({ cut = #rest / 40 + 1 })
