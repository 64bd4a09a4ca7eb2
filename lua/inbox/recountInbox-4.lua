--[[
  Repairs an inbox's counters that drifted (operator command `mailbox admin recount`): `queued` and
  `drafts` become the sizes of its queue and draft set, and each reservation day from today on in its
  slots becomes what holds it: the queued messages not yet attempted whose departure falls on that day
  (commitSlot reserved them; takeDue keeps the unit as the day's departure, a cancellation before any
  attempt gives it back: leaveWaiting), plus, for today, the departures already made (`sent:<today>`).
  Days before today and `last` are left: no search reads them again.
  The caller read the queue and each message's attempts just before; when the queue moved since (a
  departure, a retry, a new message), nothing is written and it reads again.
  Naturally safe to run twice: it sets what it counted, whatever the counters held.
  KEYS[1] inbox        hash of the inbox's fields (`queued`, `drafts`)
  KEYS[2] inboxQueue   sorted set of the inbox's queued message ids by departure (ms)
  KEYS[3] inboxDrafts  sorted set of the inbox's draft ids
  KEYS[4] inboxSlots   hash of reserved departures per day, `last`, and `sent:<day>`
  ARGV[1] today: string   today (Paris day, YYYY-MM-DD)
  ARGV[2] queued: number  the number of queued messages the caller read
  ARGV[3] reserved: json  JSON list of [id, departure ms, Paris day of that departure] for each queued message it read
                          that was never attempted (its reservation still stands)
  Returns { before: { queued: number, drafts: number, slots: Record<string, number> },
            after: { queued: number, drafts: number, slots: Record<string, number> } }
    | { moved: true }
  Refuses not_found (absent or deleted)
  Events: none.
]]
--- @include "refuse"
local status = redis.call('HGET', KEYS[1], 'status')
if not status or status == 'deleted' then return refuse('not_found') end
local reserved = cjson.decode(ARGV[3])
if redis.call('ZCARD', KEYS[2]) ~= tonumber(ARGV[2]) then return cjson.encode({ moved = true }) end
local today = ARGV[1]
local days = {}
for _, entry in ipairs(reserved) do
  if redis.call('ZSCORE', KEYS[2], entry[1]) ~= entry[2] then return cjson.encode({ moved = true }) end
  if entry[3] >= today then days[entry[3]] = (days[entry[3]] or 0) + 1 end
end
days[today] = (days[today] or 0) + tonumber(redis.call('HGET', KEYS[4], 'sent:' .. today) or '0')

local function figures()
  local counters = redis.call('HMGET', KEYS[1], 'queued', 'drafts')
  local slots = {}
  local fields = redis.call('HGETALL', KEYS[4])
  for i = 1, #fields, 2 do
    if string.match(fields[i], '^%d%d%d%d%-%d%d%-%d%d$') and fields[i] >= today then slots[fields[i]] = tonumber(fields[i + 1]) end
  end
  return { queued = tonumber(counters[1] or '0'), drafts = tonumber(counters[2] or '0'), slots = slots }
end

local before = figures()
redis.call('HSET', KEYS[1], 'queued', redis.call('ZCARD', KEYS[2]), 'drafts', redis.call('ZCARD', KEYS[3]))
for day in pairs(before.slots) do
  if not days[day] then redis.call('HDEL', KEYS[4], day) end
end
for day, count in pairs(days) do redis.call('HSET', KEYS[4], day, count) end
return cjson.encode({ before = before, after = figures() })
