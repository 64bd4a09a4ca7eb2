--[[
  Classifies a thread: replaces its labels, archives or restores it, marks its received messages read
  or unread. Does not touch messages, suppressions or delivery. Each field given is written; absent
  ones stay. A thread in history is brought back first (actors/history.ts outsideHistory).
  KEYS[1] thread        hash of the thread
  KEYS[2] journal       hash line id -> line JSON
  KEYS[3] journalIndex  hash: the index lists of line id bodies (journalIndexAdd)
  KEYS[4] threads       sorted set of thread ids by last activity
  ARGV[1] changes: json   changes JSON: labels (JSON array text, or absent), archived ('0'|'1', or absent),
                          read (true|false, or absent)
  ARGV[2] lineId: string  journal line id
  ARGV[3] lineJson: json  journal line JSON (thread.classified)
  ARGV[4] lineRefs: json  journal refs JSON array
  ARGV[5] threadId: string  the thread's id
  Returns { thread: HashFields } | { history: true }
  Refuses not_found
  Events: none (journal line thread.classified).
]]
--- @include "refuse"
--- @include "hashToTable"
--- @include "appendJournal"
--- @include "replayedLine"
if not replayedLine(KEYS[2], ARGV[2]) then
  if redis.call('EXISTS', KEYS[1]) == 0 then
    -- A thread in history has no hash (its row is packed in the name buckets): the caller brings it back and runs this again.
    if redis.call('ZSCORE', KEYS[4], ARGV[5]) then return cjson.encode({ history = true }) end
    return refuse('not_found')
  end
  local changes = cjson.decode(ARGV[1])
  if changes.labels then redis.call('HSET', KEYS[1], 'labels', changes.labels) end
  if changes.archived then redis.call('HSET', KEYS[1], 'archived', changes.archived) end
  if changes.read == true then redis.call('HSET', KEYS[1], 'unread', '0') end
  if changes.read == false then
    redis.call('HSET', KEYS[1], 'unread', redis.call('HGET', KEYS[1], 'inbound_count') or '0')
  end
  appendJournal(KEYS[2], KEYS[3], ARGV[2], ARGV[3], ARGV[4])
end
local thread = hashToTable(KEYS[1])
-- Its search document numbers are bytes, not text, and no reader of this answer's.
thread.docs = nil
return cjson.encode({ thread = thread })
