--[[
  Signs the space's human in, once their sign-in code was found right (lua/human/checkCode): if the
  address is still the space's human, stores the new session (hashed) with its journal line, in one step.
  KEYS[1] space         hash of the space's fields
  KEYS[2] session       hash of the new session, named by sha256 of its secret
  KEYS[3] journal       hash line id -> line JSON
  KEYS[4] journalIndex  hash: the index lists of line id bodies (journalIndexAdd)
  ARGV[1] now: number        now (ms)
  ARGV[2] email: string      the e-mail signing in (lowercase): must be the space's human
  ARGV[3] expiresAt: number  end of the session (ms)
  ARGV[4] lineId: string     journal line id
  ARGV[5] lineJson: json     journal line JSON (human.signed_in)
  ARGV[6] lineRefs: json     journal refs JSON array
  Returns { ok: true }
  Refuses no_pending_code (the space is gone, or its human changed since the code left)
  Events: none; journal line human.signed_in.
]]
--- @include "refuse"
--- @include "appendJournal"
--- @include "replayedLine"
if replayedLine(KEYS[3], ARGV[4]) then return cjson.encode({ ok = true }) end
if redis.call('HGET', KEYS[1], 'human_email') ~= ARGV[2] then return refuse('no_pending_code') end
redis.call('HSET', KEYS[2], 'email', ARGV[2], 'created_at', ARGV[1], 'expires_at', ARGV[3])
-- A duration, not a date: Redis expires by its own clock, the session's end is read by the injected one.
redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[3]) - tonumber(ARGV[1]))
appendJournal(KEYS[3], KEYS[4], ARGV[4], ARGV[5], ARGV[6])
return cjson.encode({ ok = true })
