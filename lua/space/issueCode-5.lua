--[[
  Stores a new 6-digit code of a purpose (hashed) once the space's code rules allow it: at most one
  send per spacing, at most N codes in the window (all purposes together), with its journal line.
  A new code voids the previous one of its purpose. The e-mail leaves after this; if it cannot,
  dropCode undoes the code, its send mark and its line.
  KEYS[1] code          hash of the purpose's pending code
  KEYS[2] codeSends     sorted set: salts of sent codes scored by send time (ms)
  KEYS[3] space         hash of the space's fields
  KEYS[4] journal       hash line id -> line JSON
  KEYS[5] journalIndex  hash: the index lists of line id bodies (journalIndexAdd)
  ARGV[1] now: number        now (ms)
  ARGV[2] salt: string       salt (hex, new for each code)
  ARGV[3] codeHash: string   sha256(salt .. code), hex
  ARGV[4] expiresAt: number  end of validity (ms)
  ARGV[5] payload: string    '' or the e-mail to attach on success
  ARGV[6] spacing: number    spacing between two sends (ms)
  ARGV[7] perWindow: number  codes allowed in the window
  ARGV[8] window: number     window (ms)
  ARGV[9] lineId: string     journal line id
  ARGV[10] lineJson: json    journal line JSON (code.sent)
  ARGV[11] lineRefs: json    journal refs JSON array
  Returns { ok: true }
  Refuses not_found | code_too_soon { retry_after_seconds } | code_limit
  Events: none; journal line code.sent.
]]
--- @include "refuse"
--- @include "appendJournal"
--- @include "replayedLine"
if replayedLine(KEYS[4], ARGV[9]) then return cjson.encode({ ok = true }) end
if redis.call('EXISTS', KEYS[3]) == 0 then return refuse('not_found') end
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - tonumber(ARGV[8]))
local last = redis.call('ZREVRANGE', KEYS[2], 0, 0, 'WITHSCORES')
if last[2] and now - tonumber(last[2]) < tonumber(ARGV[6]) then
  return refuse('code_too_soon', { retry_after_seconds = math.ceil((tonumber(last[2]) + tonumber(ARGV[6]) - now) / 1000) })
end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[7]) then return refuse('code_limit') end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'salt', ARGV[2], 'hash', ARGV[3], 'sent_at', now, 'expires_at', ARGV[4], 'attempts', 0, 'payload', ARGV[5])
redis.call('ZADD', KEYS[2], now, ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[8])
appendJournal(KEYS[4], KEYS[5], ARGV[9], ARGV[10], ARGV[11])
return cjson.encode({ ok = true })
