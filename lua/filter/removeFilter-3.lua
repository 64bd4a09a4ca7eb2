--[[
  Removes a filter of the space (remove_filter). The caller read it and checked that its key may
  change it; here it must still be there.
  KEYS[1] filters       hash filter id -> filter JSON
  KEYS[2] journal       hash line id -> line JSON
  KEYS[3] journalIndex  hash: the index lists of line id bodies (journalIndexAdd)
  ARGV[1] filterId: string  filter id
  ARGV[2] lineId: string    journal line id
  ARGV[3] lineJson: json    journal line JSON (filter.removed)
  ARGV[4] lineRefs: json    journal refs JSON array
  Returns { ok: true }
  Refuses not_found
  Events: none; journal line filter.removed.
]]
--- @include "refuse"
--- @include "appendJournal"
--- @include "replayedLine"
if replayedLine(KEYS[2], ARGV[2]) then return cjson.encode({ ok = true }) end
if redis.call('HDEL', KEYS[1], ARGV[1]) == 0 then return refuse('not_found') end
appendJournal(KEYS[2], KEYS[3], ARGV[2], ARGV[3], ARGV[4])
return cjson.encode({ ok = true })
