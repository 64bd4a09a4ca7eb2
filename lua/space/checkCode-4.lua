--[[
  Checks a 6-digit code of a purpose and, when it is right, applies what it confirms to the space
  (verify: the human and `verified`; close: `closes_at`) with its journal line, in one step. A wrong
  code counts an attempt; the last allowed failure voids the code.
  KEYS[1] code          hash of the purpose's pending code (salt, hash, expires_at, attempts)
  KEYS[2] space         hash of the space's fields
  KEYS[3] journal       hash line id -> line JSON
  KEYS[4] journalIndex  hash: the index lists of line id bodies (journalIndexAdd)
  ARGV[1] now: number            now (ms)
  ARGV[2] salt: string           salt the candidate was hashed with (read just before; another salt means the code changed
                                 meanwhile, and the candidate counts as wrong for the code in force)
  ARGV[3] candidateHash: string  sha256(salt .. candidate), hex
  ARGV[4] attempts: number       attempts allowed
  ARGV[5] fields: json           space fields to set on success, JSON object (string values)
  ARGV[6] lineId: string         journal line id
  ARGV[7] lineJson: json         journal line JSON (space.verified, space.closure_scheduled)
  ARGV[8] lineRefs: json         journal refs JSON array
  Returns { ok: true }
  Refuses no_pending_code | code_expired | invalid_code { attempts_left } | too_many_attempts
  Events: none; journal line ARGV[7] on success.
]]
--- @include "refuse"
--- @include "appendJournal"
--- @include "replayedLine"
--- @include "checkPendingCode"
if replayedLine(KEYS[3], ARGV[6]) then return cjson.encode({ ok = true }) end
if redis.call('EXISTS', KEYS[2]) == 0 then return refuse('no_pending_code') end
local refusal = checkPendingCode(KEYS[1], tonumber(ARGV[1]), ARGV[2], ARGV[3], tonumber(ARGV[4]))
if refusal then return refusal end
for field, value in pairs(cjson.decode(ARGV[5])) do redis.call('HSET', KEYS[2], field, value) end
appendJournal(KEYS[3], KEYS[4], ARGV[6], ARGV[7], ARGV[8])
return cjson.encode({ ok = true })
