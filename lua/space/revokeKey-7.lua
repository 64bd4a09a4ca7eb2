--[[
  Revokes an access: removed from the auth index at once (every front end refuses it on its next
  call), kept among the revoked for the audit trail.
  KEYS[1] keys          hash key id -> key JSON
  KEYS[2] keyNames      hash normalised name -> key id
  KEYS[3] auth          hash sha256(secret) -> key id
  KEYS[4] revokedKeys   hash key id -> key JSON
  KEYS[5] keyUse        hash key id -> last use (ms)
  KEYS[6] journal       hash line id -> line JSON
  KEYS[7] journalIndex  hash: the index lists of line id bodies (journalIndexAdd)
  ARGV[1] keyId: string        key id to revoke
  ARGV[2] callerKeyId: string  key id of the caller
  ARGV[3] lineId: string       journal line id
  ARGV[4] lineJson: json       journal line JSON (without its data, filled here with the revoked key's kind and name)
  ARGV[5] lineRefs: json       journal refs JSON array
  Returns { ok: true, kind: 'key' | 'connection', name: string }
  Refuses not_found | own_access
  Events: none; journal line key.revoked.
]]
--- @include "refuse"
--- @include "appendJournal"
--- @include "replayedLine"
local replayed = replayedLine(KEYS[6], ARGV[3])
if replayed then return cjson.encode({ ok = true, kind = replayed.data.kind, name = replayed.data.name }) end
local keyJson = redis.call('HGET', KEYS[1], ARGV[1])
if not keyJson then return refuse('not_found') end
if ARGV[1] == ARGV[2] then return refuse('own_access') end
local key = cjson.decode(keyJson)
redis.call('HDEL', KEYS[1], ARGV[1])
if redis.call('HGET', KEYS[2], key.name_norm) == ARGV[1] then redis.call('HDEL', KEYS[2], key.name_norm) end
redis.call('HDEL', KEYS[3], key.token_hash)
redis.call('HSET', KEYS[4], ARGV[1], keyJson)
redis.call('HDEL', KEYS[5], ARGV[1])
local line = cjson.decode(ARGV[4])
line.data = { key_id = ARGV[1], kind = key.kind, name = key.name }
appendJournal(KEYS[6], KEYS[7], ARGV[3], cjson.encode(line), ARGV[5])
return cjson.encode({ ok = true, kind = key.kind, name = key.name })
