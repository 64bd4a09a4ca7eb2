--[[
  Records the outcome of one webhook delivery attempt of the space's oldest undelivered event: the
  entry is acknowledged only once delivered or given up, so a worker that dies leaves it pending for
  the next one. An outcome for an address replaced meanwhile changes nothing, except that a delivered
  entry is acknowledged (it reached the address declared when it left).
  KEYS[1] events        stream of the space's events
  KEYS[2] webhook       hash of the declared webhook
  KEYS[3] journal       hash line id -> line JSON
  KEYS[4] journalIndex  hash: the index lists of line id bodies (journalIndexAdd)
  ARGV[1] group: string       consumer group name of the webhook workers
  ARGV[2] entryId: string     stream entry id
  ARGV[3] outcome: 'delivered' | 'retry' | 'gave_up'  the attempt's outcome
  ARGV[4] declaredAt: string  declared_at the worker read (the declaration it delivered for)
  ARGV[5] attempts: number    failed attempts so far (retry)
  ARGV[6] nextAt: number      when to try again (ms, retry)
  ARGV[7] lastError: string   why it failed: no_http_answer or http_<status> (src/texts.ts REASONS); '' when delivered
  ARGV[8] lineId: string      journal line id (gave_up; '' otherwise)
  ARGV[9] lineJson: json      journal line JSON (gave_up)
  ARGV[10] lineRefs: json     journal refs JSON array (gave_up)
  Returns { current: boolean } // false: the webhook was replaced (or is gone) since the worker read it
  Events: none; journal line webhook.gave_up.
]]
--- @include "appendJournal"
--- @include "replayedLine"
if replayedLine(KEYS[3], ARGV[8]) then return cjson.encode({ current = true }) end
local outcome = ARGV[3]
if redis.call('HGET', KEYS[2], 'declared_at') ~= ARGV[4] then
  if outcome == 'delivered' then redis.call('XACK', KEYS[1], ARGV[1], ARGV[2]) end
  return cjson.encode({ current = false })
end
if outcome == 'retry' then
  redis.call('HSET', KEYS[2], 'attempts', ARGV[5], 'next_at', ARGV[6], 'last_error', ARGV[7])
  return cjson.encode({ current = true })
end
redis.call('XACK', KEYS[1], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[2], 'attempts', 0, 'next_at', 0, 'last_error', ARGV[7])
if outcome == 'gave_up' then appendJournal(KEYS[3], KEYS[4], ARGV[8], ARGV[9], ARGV[10]) end
return cjson.encode({ current = true })
