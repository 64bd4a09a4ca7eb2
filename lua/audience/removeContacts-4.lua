--[[
  Removes addresses from an audience (remove_contacts). The contacts stay in the space (their threads
  and campaigns name them); a campaign stops a removed contact it has not written to yet.
  KEYS[1] audience         hash of the audience's fields
  KEYS[2] audienceMembers  sorted set address -> rank
  KEYS[3] journal          hash line id -> line JSON
  KEYS[4] journalIndex     hash: the index lists of line id bodies (journalIndexAdd)
  ARGV[1] addresses: json  JSON array of the addresses
  ARGV[2] lineId: string   journal line id
  ARGV[3] lineJson: json   journal line JSON (contacts.removed; the script sets data.removed)
  ARGV[4] lineRefs: json   journal refs JSON array
  Returns { removed: number }
  Refuses not_found
  Events: none; journal line contacts.removed.
]]
--- @include "refuse"
--- @include "appendJournal"
--- @include "replayedLine"
local replayed = replayedLine(KEYS[3], ARGV[2])
if replayed then return cjson.encode({ removed = replayed.data.removed }) end
if redis.call('EXISTS', KEYS[1]) == 0 then return refuse('not_found') end
local removed = 0
for _, email in ipairs(cjson.decode(ARGV[1])) do removed = removed + redis.call('ZREM', KEYS[2], email) end
local line = cjson.decode(ARGV[3])
line.data.removed = removed
appendJournal(KEYS[3], KEYS[4], ARGV[2], cjson.encode(line), ARGV[4])
return cjson.encode({ removed = removed })
