--[[
  Creates an access key: active-key cap, unique active name, 24 h creation limit and inbox
  existence decided together, so concurrent calls never exceed a limit.
  KEYS[1] space         hash of the space's fields
  KEYS[2] keys          hash key id -> key JSON
  KEYS[3] keyNames      hash normalised name -> key id (its length = active keys)
  KEYS[4] auth          hash sha256(secret) -> key id
  KEYS[5] keyCreations  sorted set key id by creation time (ms)
  KEYS[6] inboxes       sorted set of live inbox ids
  KEYS[7] journal       hash line id -> line JSON
  KEYS[8] journalIndex  hash: the index lists of line id bodies (journalIndexAdd)
  ARGV[1] keyId: string         key id
  ARGV[2] key: json             key JSON
  ARGV[3] nameNorm: string      normalised name
  ARGV[4] tokenHash: string     token hash
  ARGV[5] now: number           now (ms)
  ARGV[6] maxKeys: number       active key cap
  ARGV[7] maxCreations: number  creations allowed per 24 h
  ARGV[8] inboxIds: json        inbox ids the key is restricted to, JSON array (empty: all)
  ARGV[9] lineId: string        journal line id
  ARGV[10] lineJson: json       journal line JSON
  ARGV[11] lineRefs: json       journal refs JSON array
  Returns { ok: true }
  Refuses unauthorized (space gone) | not_found { inbox_id } | key_limit { max } | key_name_taken { name }
    | space_rate_limited { retry_after_seconds }
  Events: none; journal line key.created.
]]
--- @include "refuse"
--- @include "spaceRateLimited"
--- @include "spendRollingLimit"
--- @include "appendJournal"
--- @include "replayedLine"
if replayedLine(KEYS[7], ARGV[9]) then return cjson.encode({ ok = true }) end
if redis.call('EXISTS', KEYS[1]) == 0 then return refuse('unauthorized') end
for _, inboxId in ipairs(cjson.decode(ARGV[8])) do
  if not redis.call('ZSCORE', KEYS[6], inboxId) then return refuse('not_found', { inbox_id = inboxId }) end
end
if redis.call('HLEN', KEYS[3]) >= tonumber(ARGV[6]) then return refuse('key_limit', { max = tonumber(ARGV[6]) }) end
if redis.call('HEXISTS', KEYS[3], ARGV[3]) == 1 then
  return refuse('key_name_taken', { name = cjson.decode(ARGV[2]).name })
end
local now = tonumber(ARGV[5])
local limited = spaceRateLimited(KEYS[5], now, tonumber(ARGV[7]))
if limited then return limited end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[3], ARGV[3], ARGV[1])
redis.call('HSET', KEYS[4], ARGV[4], ARGV[1])
spendRollingLimit(KEYS[5], now, ARGV[1])
appendJournal(KEYS[7], KEYS[8], ARGV[9], ARGV[10], ARGV[11])
return cjson.encode({ ok = true })
