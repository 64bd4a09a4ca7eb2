--[[
  Journals a change made outside Redis (a Checkout Session opened at the payment provider): the line
  alone, for a space that exists.
  KEYS[1] space         hash of the space's fields
  KEYS[2] journal       hash line id -> line JSON
  KEYS[3] journalIndex  hash: the index lists of line id bodies (journalIndexAdd)
  ARGV[1] lineId: string  journal line id
  ARGV[2] lineJson: json  journal line JSON
  ARGV[3] lineRefs: json  journal refs JSON array
  Returns { ok: true }
  Refuses not_found (no such space)
  Events: none; journal line ARGV[2].
]]
--- @include "refuse"
--- @include "appendJournal"
--- @include "replayedLine"
if replayedLine(KEYS[2], ARGV[1]) then return cjson.encode({ ok = true }) end
if redis.call('EXISTS', KEYS[1]) == 0 then return refuse('not_found') end
appendJournal(KEYS[2], KEYS[3], ARGV[1], ARGV[2], ARGV[3])
return cjson.encode({ ok = true })
