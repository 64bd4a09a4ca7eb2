--[[
  The human's sign-in, step 1 (actors/signin-codes.ts): a 6-digit code for an address, within the
  requester's budget, stored (hashed) as one attempt of its own, so that a code asked by someone else
  never voids it. The same work whether or not the address is a space's human: an attempt with no
  space is stored too (its code goes nowhere), the budgets count it the same, the answer is the same.
  A requester is a browser that signed in as the address before (its device cookie, `d:<hash>`), else
  the client address (`a:<address>`); strangers together also have a budget per address, which bounds
  the guesses anyone can make at its codes, and which never stops a browser that signed in before.
  KEYS[1] spaces    set: the spaces the address is, or was meant to be, the human of (the index)
  KEYS[2] sends     sorted set: `<requester> <salt>` of the codes sent for the address, by time (ms)
  KEYS[3] attempt   hash: the new attempt (salt, hash, expires_at, attempts, spaces)
  KEYS[4] devices   sorted set: sha256 of the device cookies that signed in as the address -> last (ms)
  ARGV[1] now: number            now (ms)
  ARGV[2] address: string        the client address (an IPv4 address, or an IPv6 /64)
  ARGV[3] device: string         sha256 of the browser's device cookie, or ''
  ARGV[4] spaceId: string        the space named by the form, or '' (then every space of the index)
  ARGV[5] salt: string           salt (hex, new for each code)
  ARGV[6] codeHash: string       sha256(salt .. ':' .. code), hex
  ARGV[7] expiresAt: number      end of validity (ms)
  ARGV[8] spacing: number        spacing between two codes of one requester (ms)
  ARGV[9] perRequester: number   codes one requester may get in the window
  ARGV[10] strangers: number     codes strangers together may get in the window
  ARGV[11] window: number        window (ms)
  Returns { spaces: string } // the space ids, space-separated, maybe none
  Refuses code_too_soon { retry_after_seconds } | signin_code_limit { retry_after_seconds }
  Events: none.
]]
--- @include "refuse"
-- Run again after a lost reply (the attempt, new at each call, is there): the first run's answer.
local done = redis.call('HGET', KEYS[3], 'spaces')
if done then return cjson.encode({ spaces = done }) end
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[11])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - window)
local recognised = ARGV[3] ~= '' and redis.call('ZSCORE', KEYS[4], ARGV[3])
local requester = recognised and ('d:' .. ARGV[3]) or ('a:' .. ARGV[2])
-- Oldest first; at most the budgets' sum of entries (strangers', and each remembered browser's).
local sent = redis.call('ZRANGE', KEYS[2], 0, -1, 'WITHSCORES')
local mine, strangers = {}, {}
for i = 1, #sent, 2 do
  local who = string.match(sent[i], '^(%S+) ')
  local at = tonumber(sent[i + 1])
  if who == requester then mine[#mine + 1] = at end
  if string.sub(who, 1, 2) == 'a:' then strangers[#strangers + 1] = at end
end
local spacing, perRequester, perAddress = tonumber(ARGV[8]), tonumber(ARGV[9]), tonumber(ARGV[10])
local function waitFor(at, span) return math.max(1, math.ceil((at + span - now) / 1000)) end
if #mine > 0 and now - mine[#mine] < spacing then
  return refuse('code_too_soon', { retry_after_seconds = waitFor(mine[#mine], spacing) })
end
if #mine >= perRequester then
  return refuse('signin_code_limit', { retry_after_seconds = waitFor(mine[#mine - perRequester + 1], window) })
end
if not recognised and #strangers >= perAddress then
  return refuse('signin_code_limit', { retry_after_seconds = waitFor(strangers[#strangers - perAddress + 1], window) })
end
local spaces
if ARGV[4] ~= '' then
  spaces = redis.call('SISMEMBER', KEYS[1], ARGV[4]) == 1 and { ARGV[4] } or {}
else
  spaces = redis.call('SMEMBERS', KEYS[1])
end
local listed = table.concat(spaces, ' ')
redis.call('HSET', KEYS[3], 'salt', ARGV[5], 'hash', ARGV[6], 'expires_at', ARGV[7], 'attempts', 0, 'spaces', listed)
redis.call('PEXPIRE', KEYS[3], string.format('%d', tonumber(ARGV[7]) - now))
redis.call('ZADD', KEYS[2], ARGV[1], requester .. ' ' .. ARGV[5])
redis.call('PEXPIRE', KEYS[2], ARGV[11])
return cjson.encode({ spaces = listed })
