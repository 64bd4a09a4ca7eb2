--[[
  Cancels the space's confirmed closure and any pending closure code (close_space with cancel).
  KEYS[1] space         hash of the space's fields (closes_at while a closure waits)
  KEYS[2] code          hash of the pending `close` code
  KEYS[3] journal       hash line id -> line JSON
  KEYS[4] journalIndex  hash: the index lists of line id bodies (journalIndexAdd)
  ARGV[1] lineId: string  journal line id
  ARGV[2] lineJson: json  journal line JSON (space.closure_cancelled)
  ARGV[3] lineRefs: json  journal refs JSON array
  Returns { cancelled: boolean } // false: no confirmed closure was waiting
  Refuses not_found
  Events: none; journal line space.closure_cancelled when a confirmed closure is cancelled.
]]
--- @include "refuse"
--- @include "appendJournal"
--- @include "replayedLine"
if replayedLine(KEYS[3], ARGV[1]) then return cjson.encode({ cancelled = true }) end
if redis.call('EXISTS', KEYS[1]) == 0 then return refuse('not_found') end
redis.call('DEL', KEYS[2])
if redis.call('HDEL', KEYS[1], 'closes_at') == 0 then return cjson.encode({ cancelled = false }) end
appendJournal(KEYS[3], KEYS[4], ARGV[1], ARGV[2], ARGV[3])
return cjson.encode({ cancelled = true })
