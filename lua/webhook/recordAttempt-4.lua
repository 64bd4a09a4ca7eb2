--[[
  Records the outcome of one webhook delivery attempt of the space's oldest undelivered event: the
  entry is acknowledged only once delivered or given up, so a worker that dies leaves it pending for
  the next one. An outcome for an address replaced meanwhile changes nothing, except that a delivered
  entry is acknowledged (it reached the address declared when it left).
  KEYS[1] events        stream of the space's events
  KEYS[2] webhook       hash of the declared webhook
  KEYS[3] journal       hash line id -> line JSON
  KEYS[4] journalIndex  hash: the index lists of line id bodies (journalIndexAdd)
  ARGV[1] consumer group name of the webhook workers
  ARGV[2] stream entry id
  ARGV[3] outcome: delivered | retry | gave_up
  ARGV[4] declared_at the worker read (the declaration it delivered for)
  ARGV[5] failed attempts so far (retry)
  ARGV[6] when to try again (ms, retry)
  ARGV[7] last error, in French ('' when delivered)
  ARGV[8] journal line id (gave_up; '' otherwise)
  ARGV[9] journal line JSON (gave_up)
  ARGV[10] journal refs JSON array (gave_up)
  Returns {"current":true|false}: false when the webhook was replaced (or is gone) since the worker read it.
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
