--[[
  Adds contacts to an audience (add_contacts), the caller having set aside the invalid addresses and
  the platform's dead ones. Each address joins the audience's members at the next rank (campaigns feed
  them in that order) unless it is already a member (duplicate, also twice in one call) or on the
  space's suppression list (suppressed); the contact's name and fields given here replace the ones kept.
  The addresses new to the space may not take it past ARGV[6] contacts: then nothing is written.
  KEYS[1] audience         hash of the audience's fields (seq: the last rank given)
  KEYS[2] audienceMembers  sorted set address -> rank
  KEYS[3] contacts         hash address -> contact JSON {name?, fields?}
  KEYS[4] contactIndex     sorted set (score 0, lex) of the space's contact addresses
  KEYS[5] suppressions     hash of suppressed values (address, @domain)
  KEYS[6] journal          hash line id -> line JSON
  KEYS[7] journalIndex     hash: the index lists of line id bodies (journalIndexAdd)
  ARGV[1] contacts: json       JSON array [{email, contact}] (contact: the JSON to keep, '' to keep the one held)
  ARGV[2] maxExamples: number  most examples of skipped addresses to answer
  ARGV[3] lineId: string       journal line id
  ARGV[4] lineJson: json       journal line JSON (contacts.added; the script sets data.added and data.skipped)
  ARGV[5] lineRefs: json       journal refs JSON array
  ARGV[6] maxContacts: number  most contacts in the space
  Returns { added: number, duplicate: number, suppressed: number,
            examples: { email: string, reason: 'duplicate' | 'suppressed' }[] | EmptyTable }
  Refuses not_found | contact_limit { max, contacts }
  Events: none; journal line contacts.added.
]]
--- @include "refuse"
--- @include "appendJournal"
--- @include "replayedLine"
--- @include "suppressionEntry"
local replayed = replayedLine(KEYS[6], ARGV[3])
if replayed then
  return cjson.encode({ added = replayed.data.added, duplicate = replayed.data.duplicate, suppressed = replayed.data.suppressed, examples = {} })
end
if redis.call('EXISTS', KEYS[1]) == 0 then return refuse('not_found') end
local maxExamples = tonumber(ARGV[2])
local duplicate, suppressed, examples = 0, 0, {}
local function skip(email, reason)
  if #examples < maxExamples then examples[#examples + 1] = { email = email, reason = reason } end
end
-- Judged first, written after: a call past the space's limit writes nothing.
local joining, seen, fresh = {}, {}, 0
for _, item in ipairs(cjson.decode(ARGV[1])) do
  local email = item.email
  if seen[email] or redis.call('ZSCORE', KEYS[2], email) then
    duplicate = duplicate + 1
    skip(email, 'duplicate')
  elseif suppressionEntry(KEYS[5], email, '@' .. string.match(email, '@(.+)$')) then
    suppressed = suppressed + 1
    skip(email, 'suppressed')
  else
    seen[email] = true
    joining[#joining + 1] = item
    if redis.call('HEXISTS', KEYS[3], email) == 0 then fresh = fresh + 1 end
  end
end
local held, max = redis.call('HLEN', KEYS[3]), tonumber(ARGV[6])
if fresh > 0 and held + fresh > max then return refuse('contact_limit', { max = max, contacts = held }) end
local rank = tonumber(redis.call('HGET', KEYS[1], 'seq') or '0')
for _, item in ipairs(joining) do
  rank = rank + 1
  redis.call('ZADD', KEYS[2], string.format('%d', rank), item.email)
  if item.contact ~= '' or redis.call('HEXISTS', KEYS[3], item.email) == 0 then
    redis.call('HSET', KEYS[3], item.email, item.contact == '' and '{}' or item.contact)
  end
  redis.call('ZADD', KEYS[4], '0', item.email)
end
redis.call('HSET', KEYS[1], 'seq', string.format('%d', rank))
local line = cjson.decode(ARGV[4])
line.data.added, line.data.duplicate, line.data.suppressed = #joining, duplicate, suppressed
line.data.skipped = line.data.skipped + duplicate + suppressed
appendJournal(KEYS[6], KEYS[7], ARGV[3], cjson.encode(line), ARGV[5])
return cjson.encode({ added = #joining, duplicate = duplicate, suppressed = suppressed, examples = examples })
