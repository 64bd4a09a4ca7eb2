--[[
  Brings a thread back from history (actors/history.ts): new mail on it, a reply, a bounce or a
  complaint about one of its messages, a classification. Writes back what its history document holds,
  as it was before the move (the messages' hashes, the thread's list of message ids and loop guard
  window, the received messages' Message-ID entries), and the thread's hash from its packed row, and
  drops the row and its names from the name buckets (a name another thread's message shares by chance
  stays: its slot holds another thread's id body), its document's with them (nothing names the
  document then: the blob sweep removes it). Only while the row is as read (it names the document),
  under the names' layout as read.
  KEYS[1] thread          hash of the thread
  KEYS[2] threadMessages  sorted set of the thread's message ids (when its document held them there)
  KEYS[3] messageIds      hash of the space's received Message-IDs
  KEYS[4] history         hash of the space's history: buckets, split, entries
  KEYS[5] threads         string: the id bodies of the threads the names point to, 20 characters a slot
  KEYS[6 ..] records      the thread's message hashes (ARGV[3] of them, in the document's order), then the name buckets ARGV[7] and ARGV[9] name
  ARGV[1] packed: string    the thread's row as read from history
  ARGV[2] layout: string    the names' layout as read: "<buckets> <split>"
  ARGV[3] messages: number  how many of KEYS[6 ..] are message hashes
  ARGV[4] records: json     each message hash's field/value pairs, in KEYS' order
  ARGV[5] thread: json      `fields`: the thread hash's field/value pairs (its row's, without `history`, and
                            msgs and loop_window when its document kept them); `set`: the ids to put back in KEYS[2]
  ARGV[6] msgids: json      the messageIds field/value pairs to put back
  ARGV[7] names: json       [[index in KEYS of its bucket, field in hex], ...]
  ARGV[8] body: string      the thread's id body
  ARGV[9] row: json         [index in KEYS of its bucket, field in hex]: where its row is
  Returns { back: number } | { stale: true }
  Events: none.
]]
--- @include "namesLayout"
--- @include "nameField"
local thread, count = KEYS[1], tonumber(ARGV[3])
local row = cjson.decode(ARGV[9])
local rowKey, rowField = KEYS[row[1]], nameField(row[2])
if redis.call('HGET', rowKey, rowField) ~= ARGV[1] or namesLayout(KEYS[4]) ~= ARGV[2] then
  return cjson.encode({ stale = true })
end
local records = cjson.decode(ARGV[4])
for i = 1, count do redis.call('HSET', KEYS[5 + i], unpack(records[i])) end
local kept = cjson.decode(ARGV[5])
if kept.set then
  local scored = {}
  for _, id in ipairs(kept.set) do
    scored[#scored + 1] = '0'
    scored[#scored + 1] = id
  end
  redis.call('ZADD', KEYS[2], unpack(scored))
end
redis.call('HSET', thread, unpack(kept.fields))
redis.call('HDEL', rowKey, rowField)
local msgids = cjson.decode(ARGV[6])
if #msgids > 0 then redis.call('HSET', KEYS[3], unpack(msgids)) end
local dropped = 0
for _, name in ipairs(cjson.decode(ARGV[7])) do
  local field = nameField(name[2])
  local slot = redis.call('HGET', KEYS[name[1]], field)
  if slot and redis.call('GETRANGE', KEYS[5], slot * 20, slot * 20 + 19) == ARGV[8] then
    dropped = dropped + redis.call('HDEL', KEYS[name[1]], field)
  end
end
redis.call('HINCRBY', KEYS[4], 'entries', -dropped - 1)
return cjson.encode({ back = count })
