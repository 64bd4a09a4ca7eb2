--[[
  Moves the journal's lines of a range of Paris days out of Redis (actors/journal-history.ts,
  docs/architecture.md "Journal layout"): the day document holding them is already durable in the
  blob store; here the lines leave the journal hash, their bodies every index list they were filed in
  (journalIndexDropBelow), and `journal:days` names the document under its day and records the end of
  the moved days (`to`), from which readers look in Redis and under which in the documents. Only a
  range as read: the same `to`, the same bodies in the `* ` list (a line written since would be lost).
  KEYS[1] journal       hash: line id -> the line's compact JSON
  KEYS[2] journalIndex  hash: the index lists of line id bodies (journalIndexAdd)
  KEYS[3] journalDays   hash: Paris day -> its document's SHA-256; `to`, the moved days' end (ms)
  KEYS[4] blobs         set of the SHA-256 of the space's blobs that records point to
  ARGV[1] to: string      the moved days' end as read ('' when no day moved yet)
  ARGV[2] next: number    the range's end: the start of a Paris day (ms), the new `to`
  ARGV[3] from: string    the range's start as a body's time (encodeTime of ARGV[1]), '' when none
  ARGV[4] below: string   the range's end as a body's time (encodeTime of ARGV[2])
  ARGV[5] day: string     the Paris day the document holds, YYYY-MM-DD; '' when the range has no line
  ARGV[6] sha: string     the document's SHA-256 (base64url); '' when there is none
  ARGV[7] bodies: string  the range's line id bodies as read, 20 characters each, newest first
  ARGV[8] prefixes: json  the index lists its lines are filed in (`* ` and each ref's prefix)
  Returns { moved: number } | { stale: true }
  Events: none.
]]
--- @include "journalWalk"
--- @include "journalIndexDropBelow"
local days, bodies = KEYS[3], ARGV[7]
if (redis.call('HGET', days, 'to') or '') ~= ARGV[1] then return cjson.encode({ stale = true }) end
-- One more than read: a line filed in the range since the read shows.
if table.concat(journalWalk(KEYS[2], '* ', ARGV[4], ARGV[3], #bodies / 20 + 1)) ~= bodies then
  return cjson.encode({ stale = true })
end
local ids = {}
for at = 1, #bodies - 19, 20 do
  ids[#ids + 1] = 'log_' .. string.sub(bodies, at, at + 19)
  -- Within what unpack can spread.
  if #ids == 1000 then
    redis.call('HDEL', KEYS[1], unpack(ids))
    ids = {}
  end
end
if #ids > 0 then redis.call('HDEL', KEYS[1], unpack(ids)) end
for _, prefix in ipairs(cjson.decode(ARGV[8])) do journalIndexDropBelow(KEYS[2], prefix, ARGV[4]) end
if ARGV[5] ~= '' then
  redis.call('HSET', days, ARGV[5], ARGV[6], 'to', ARGV[2])
  redis.call('SADD', KEYS[4], ARGV[6])
else
  redis.call('HSET', days, 'to', ARGV[2])
end
return cjson.encode({ moved = #bodies / 20 })
