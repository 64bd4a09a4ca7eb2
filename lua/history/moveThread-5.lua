--[[
  Moves a thread into history (actors/history.ts, decisions 18): its history document is already
  durable in the blob store; here Redis drops what the document holds (the messages' hashes, the
  thread's list of message ids and loop guard window, its received messages' Message-ID entries) and
  the thread's hash: its row (what list_threads shows, labels and states) is packed into one entry of
  the history names buckets, `history` naming the document. A name goes there too for each message
  id, each received Message-ID and the document (so the blob sweep keeps it) to find its thread again:
  the name's field -> the thread's slot, its id body appended to the space's history threads. Only a
  thread as the document was read from: same last activity, same messages, none a draft, queued or
  sending; the names' layout as read (a split between the read and the move would misplace them).
  KEYS[1] thread          hash of the thread
  KEYS[2] threadMessages  sorted set of the thread's message ids (when past its hash's `msgs`)
  KEYS[3] messageIds      hash of the space's received Message-IDs
  KEYS[4] history         hash of the space's history: buckets, split, entries
  KEYS[5] threads         string: the id bodies of the threads the names point to, 20 characters a slot
  KEYS[6 ..] records      the thread's message hashes (ARGV[4] of them), then the name buckets ARGV[5] and ARGV[9] write
  ARGV[1] sha: string       the history document's SHA-256 (base64url)
  ARGV[2] activity: string  the thread's stored last_message_at as the document holds it ('' when left out)
  ARGV[3] layout: string    the names' layout as read: "<buckets> <split>" (split '' when not growing)
  ARGV[4] messages: number  how many of KEYS[6 ..] are message hashes
  ARGV[5] names: json       [[index in KEYS of its bucket, field in hex], ...]: its messages', its document's
  ARGV[6] msgids: json      the messageIds fields of its received messages
  ARGV[7] body: string      the thread's id body
  ARGV[8] fields: json      the row's fields, in the order its packed value lists their values (null: absent)
  ARGV[9] row: json         [index in KEYS of its bucket, field in hex]: where the row goes
  Returns { moved: number } | { stale: true }
  Events: none.
]]
--- @include "namesLayout"
--- @include "nameField"
local thread, count = KEYS[1], tonumber(ARGV[4])
local fields = redis.call('HMGET', thread, 'inbox_id', 'last_message_at', 'msgs')
if not fields[1] or (fields[2] or '') ~= ARGV[2] or namesLayout(KEYS[4]) ~= ARGV[3] then
  return cjson.encode({ stale = true })
end
local held = 0
if fields[3] then
  for _ in string.gmatch(fields[3], '%S+') do held = held + 1 end
else
  held = redis.call('ZCARD', KEYS[2])
end
if held ~= count then return cjson.encode({ stale = true }) end
for i = 6, 5 + count do
  local status = redis.call('HGET', KEYS[i], 'status')
  if not status or status == 'draft' or status == 'queued' or status == 'sending' then
    return cjson.encode({ stale = true })
  end
end
for i = 6, 5 + count do redis.call('DEL', KEYS[i]) end
redis.call('DEL', KEYS[2])
local rowFields = cjson.decode(ARGV[8])
local values = redis.call('HMGET', thread, unpack(rowFields))
local packed, last = {}, 0
for i, field in ipairs(rowFields) do
  if field == 'history' then values[i] = ARGV[1] end
  if values[i] then last = i end
end
for i = 1, last do packed[i] = values[i] or cjson.null end
redis.call('DEL', thread)
local row = cjson.decode(ARGV[9])
redis.call('HSET', KEYS[row[1]], nameField(row[2]), cjson.encode(packed))
local msgids = cjson.decode(ARGV[6])
if #msgids > 0 then redis.call('HDEL', KEYS[3], unpack(msgids)) end
local slot = redis.call('APPEND', KEYS[5], ARGV[7]) / 20 - 1
local names = cjson.decode(ARGV[5])
for _, name in ipairs(names) do redis.call('HSET', KEYS[name[1]], nameField(name[2]), slot) end
redis.call('HINCRBY', KEYS[4], 'entries', #names + 1)
return cjson.encode({ moved = count })
