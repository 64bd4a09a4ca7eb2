--[[
  Signs the space's human in: checks the sign-in code (the rules of actors/codes.ts) and, when it is
  right and the address is still the space's human, stores the new session (hashed) with its journal
  line, in one step.
  KEYS[1] code          hash of the pending sign-in code (salt, hash, expires_at, attempts)
  KEYS[2] space         hash of the space's fields
  KEYS[3] session       hash of the new session, named by sha256 of its secret
  KEYS[4] journal       hash line id -> line JSON
  KEYS[5] journalIndex  hash: the index lists of line id bodies (journalIndexAdd)
  ARGV[1] now (ms)
  ARGV[2] salt the candidate was hashed with
  ARGV[3] sha256(salt .. candidate), hex
  ARGV[4] attempts allowed
  ARGV[5] the e-mail signing in (lowercase): must be the space's human
  ARGV[6] end of the session (ms)
  ARGV[7] journal line id
  ARGV[8] journal line JSON (human.signed_in)
  ARGV[9] journal refs JSON array
  Returns {"ok":true} | {"error":"no_pending_code"} | {"error":"code_expired"}
    | {"error":"invalid_code","hint":{"attempts_left":n}} | {"error":"too_many_attempts"}.
  Events: none; journal line human.signed_in.
]]
--- @include "refuse"
--- @include "appendJournal"
--- @include "replayedLine"
--- @include "checkPendingCode"
if replayedLine(KEYS[4], ARGV[7]) then return cjson.encode({ ok = true }) end
-- A space gone, or whose human changed since the code left, has no code for this address.
if redis.call('HGET', KEYS[2], 'human_email') ~= ARGV[5] then return refuse('no_pending_code') end
local refusal = checkPendingCode(KEYS[1], tonumber(ARGV[1]), ARGV[2], ARGV[3], tonumber(ARGV[4]))
if refusal then return refusal end
redis.call('HSET', KEYS[3], 'email', ARGV[5], 'created_at', ARGV[1], 'expires_at', ARGV[6])
-- A duration, not a date: Redis expires by its own clock, the session's end is read by the injected one.
redis.call('PEXPIRE', KEYS[3], tonumber(ARGV[6]) - tonumber(ARGV[1]))
appendJournal(KEYS[4], KEYS[5], ARGV[7], ARGV[8], ARGV[9])
return cjson.encode({ ok = true })
