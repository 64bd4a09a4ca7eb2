--[[
  Adds a filter to the space (add_filter): for one inbox or the whole space, at most ARGV[2] in all.
  The same filter (inbox, direction, action, value) already in place is answered as it is.
  KEYS[1] space         hash of the space's fields (a space erased meanwhile gets nothing written)
  KEYS[2] filters       hash filter id -> filter JSON
  KEYS[3] journal       hash line id -> line JSON
  KEYS[4] journalIndex  hash: the index lists of line id bodies (journalIndexAdd)
  ARGV[1] filter: json        filter JSON {id, inbox_id, direction, action, value, created_at, created_by}
  ARGV[2] maxFilters: number  most filters a space may hold
  ARGV[3] lineId: string      journal line id
  ARGV[4] lineJson: json      journal line JSON (filter.added)
  ARGV[5] lineRefs: json      journal refs JSON array
  Returns { created: boolean, filter: Filter } // filter: the one in place
  Refuses not_found (no such space) | filter_limit { max }
  Events: none; journal line filter.added when written.
]]
--- @include "refuse"
--- @include "appendJournal"
--- @include "replayedLine"
if replayedLine(KEYS[3], ARGV[3]) then return cjson.encode({ created = true, filter = cjson.decode(ARGV[1]) }) end
if redis.call('EXISTS', KEYS[1]) == 0 then return refuse('not_found') end
local filter = cjson.decode(ARGV[1])
for _, raw in ipairs(redis.call('HVALS', KEYS[2])) do
  local held = cjson.decode(raw)
  if held.inbox_id == filter.inbox_id and held.direction == filter.direction and held.action == filter.action and held.value == filter.value then
    return cjson.encode({ created = false, filter = held })
  end
end
local max = tonumber(ARGV[2])
if redis.call('HLEN', KEYS[2]) >= max then return refuse('filter_limit', { max = max }) end
redis.call('HSET', KEYS[2], filter.id, ARGV[1])
appendJournal(KEYS[3], KEYS[4], ARGV[3], ARGV[4], ARGV[5])
return cjson.encode({ created = true, filter = filter })
