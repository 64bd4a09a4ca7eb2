--[[
  The human's sign-in, step 2 (actors/signin-codes.ts): checks a code against its attempt (the rules of
  actors/codes.ts: 15 minutes, 10 attempts, the last failure voids it) and, when it is right, says
  which space it signs into and remembers the browser. An address that is the human of several spaces
  names one: the right code with none named (or one not among them) answers the list, spends nothing
  and counts no attempt. A spent attempt keeps, for a minute, what answers a second run of the same
  call (a lost reply): the candidate's hash and the browser's; any other candidate finds no code.
  KEYS[1] attempt   hash: the attempt (salt, hash, expires_at, attempts, spaces)
  KEYS[2] devices   sorted set: sha256 of the device cookies that signed in as the address -> last (ms)
  ARGV[1] now: number          now (ms)
  ARGV[2] salt: string         salt the candidate was hashed with (read just before)
  ARGV[3] candidate: string    sha256(salt .. ':' .. candidate), hex
  ARGV[4] attempts: number     attempts allowed
  ARGV[5] spaceId: string      the space named by the form, or ''
  ARGV[6] device: string       sha256 of the browser's device cookie, remembered on success
  ARGV[7] maxDevices: number   browsers remembered per address, at most (the least recent goes)
  ARGV[8] deviceLife: number   how long a browser is remembered (ms)
  Returns { space: string } // the space id, or '' when the attempt had none
    | { choose: string } // the space ids, space-separated
  Refuses no_pending_code | code_expired | invalid_code { attempts_left } | too_many_attempts
  Events: none.
]]
--- @include "checkPendingCode"
local now = tonumber(ARGV[1])
-- Run again after a lost reply: the same code from the same browser gets the first run's answer, for a minute.
local spent = redis.call('HMGET', KEYS[1], 'spent', 'space')
if spent[1] and spent[1] == ARGV[3] .. ' ' .. ARGV[6] then return cjson.encode({ space = spent[2] }) end
local listed = redis.call('HGET', KEYS[1], 'spaces') or ''
local picked = nil
local count = 0
for space in string.gmatch(listed, '%S+') do
  count = count + 1
  if space == ARGV[5] or picked == nil then picked = space end
end
if count > 1 and not string.find(' ' .. listed .. ' ', ' ' .. ARGV[5] .. ' ', 1, true) then
  local code = redis.call('HMGET', KEYS[1], 'salt', 'hash', 'expires_at')
  if code[1] == ARGV[2] and code[2] == ARGV[3] and now <= tonumber(code[3]) then
    return cjson.encode({ choose = listed })
  end
end
local refusal = checkPendingCode(KEYS[1], now, ARGV[2], ARGV[3], tonumber(ARGV[4]))
if refusal then return refusal end
redis.call('HSET', KEYS[1], 'spent', ARGV[3] .. ' ' .. ARGV[6], 'space', picked or '')
redis.call('PEXPIRE', KEYS[1], 60000)
redis.call('ZADD', KEYS[2], ARGV[1], ARGV[6])
redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -tonumber(ARGV[7]) - 1)
redis.call('PEXPIRE', KEYS[2], ARGV[8])
return cjson.encode({ space = picked or '' })
