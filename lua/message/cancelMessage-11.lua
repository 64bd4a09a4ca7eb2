--[[
  Cancels a draft or a queued message (cancel_message, and delete_inbox for each message of the inbox):
  it leaves where it waited, its inbox's counter goes down, a queued message never tried gives back the
  unit of its day reserved in the inbox's slots (one put back after a failed attempt used it), and
  its departure no longer spaces the next ones when it was the latest (releaseLast). It no
  longer counts in the thread's loop guard (it never left), and a first message cancelled while alone
  in its thread frees the 30-day duplicate rule for its recipient.
  The caller read the message to compute the Paris day of its slot; if the slot changed since (approved
  or moved meanwhile), the script answers `stale` and the caller reads again.
  KEYS[1] message          hash of the message
  KEYS[2] inbox            hash of its inbox (drafts, queued)
  KEYS[3] drafts           sorted set of the space's draft ids
  KEYS[4] inboxDrafts      sorted set of the inbox's draft ids
  KEYS[5] queue            sorted set of the space's queued message ids by departure (ms)
  KEYS[6] inboxQueue       sorted set of the inbox's queued message ids by departure (ms)
  KEYS[7] inboxSlots       hash of reserved departures per Paris day, and `last`
  KEYS[8] inboxRecipients  hash recipient -> "<thread id> <ms>" of the inbox's last first message
  KEYS[9] thread           hash of the message's thread (its loop guard window)
  KEYS[10] journal         hash line id -> line JSON
  KEYS[11] journalIndex    hash: the index lists of line id bodies (journalIndexAdd)
  ARGV[1] slot: string       the slot the caller read ('' for a draft)
  ARGV[2] day: string        the Paris day of that slot, YYYY-MM-DD ('' for a draft)
  ARGV[3] lineId: string     journal line id
  ARGV[4] lineJson: json     journal line JSON (message.cancelled)
  ARGV[5] lineRefs: json     journal refs JSON array
  ARGV[6] spacing: number    spacing (ms, without jitter): the least any two departures of the inbox are apart
  ARGV[7] messageId: string  the message id (its hash does not hold it)
  Returns { message: HashFields } | { stale: true } // message: its fields, status cancelled
  Refuses not_found | not_cancellable
  Events: none (no event type tells a cancellation); journal line message.cancelled.
]]
--- @include "refuse"
--- @include "hashToTable"
--- @include "leaveWaiting"
--- @include "releaseLast"
--- @include "appendJournal"
--- @include "replayedLine"
--- @include "loopWindow"
--- @include "keepLoopWindow"
if replayedLine(KEYS[10], ARGV[3]) then return cjson.encode({ message = hashToTable(KEYS[1]) }) end
local message = hashToTable(KEYS[1])
if not message.status then return refuse('not_found') end
if message.status ~= 'draft' and message.status ~= 'queued' then return refuse('not_cancellable') end
-- A field at its default may be absent (actors/stored-records.ts): no slot reads as ''.
if (message.slot or '') ~= ARGV[1] then return cjson.encode({ stale = true }) end

local id = ARGV[7]
local lists = { drafts = KEYS[3], inboxDrafts = KEYS[4], queue = KEYS[5], inboxQueue = KEYS[6], slots = KEYS[7], inbox = KEYS[2] }
leaveWaiting(lists, id, message.status, (message.attempts or '0') == '0' and ARGV[2] or '')
if message.status == 'queued' then releaseLast(KEYS[7], KEYS[6], tonumber(message.slot), tonumber(ARGV[6])) end
redis.call('HSET', KEYS[1], 'status', 'cancelled', 'status_code', '', 'slot', '')
keepLoopWindow(KEYS[9], loopWindow(redis.call('HGET', KEYS[9], 'loop_window'), 0, id))
local last = redis.call('HGET', KEYS[8], message.to)
if last and string.match(last, '^(%S+) ') == message.thread_id and redis.call('HGET', KEYS[9], 'message_count') == '1' then
  redis.call('HDEL', KEYS[8], message.to)
end
appendJournal(KEYS[10], KEYS[11], ARGV[3], ARGV[4], ARGV[5])
return cjson.encode({ message = hashToTable(KEYS[1]) })
