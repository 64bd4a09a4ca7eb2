--[[
  Creates a `connection` access (an assistant the human allowed on the consent page) and the
  authorization code that hands it to the client, in one step: the name made unique among the active
  connections with a suffix ` (2)`, ` (3)`..., the inboxes checked, the connections capped.
  KEYS[1] space         hash of the space's fields
  KEYS[2] keys          hash key id -> key JSON
  KEYS[3] inboxes       sorted set of live inbox ids
  KEYS[4] code          string: the authorization code's grant, named by sha256 of the code
  KEYS[5] journal       hash line id -> line JSON
  KEYS[6] journalIndex  hash: the index lists of line id bodies (journalIndexAdd)
  ARGV[1] keyId: string           key id
  ARGV[2] key: json               key JSON (name and name_norm: the client's name, made unique here)
  ARGV[3] grant: json             the code's grant JSON (key_id already in it)
  ARGV[4] codeLife: number        the code's life (ms)
  ARGV[5] maxConnections: number  active connections allowed
  ARGV[6] inboxIds: json          inbox ids the connection is restricted to, JSON array (empty: all)
  ARGV[7] lineId: string          journal line id
  ARGV[8] lineJson: json          journal line JSON (without its data's name, set here)
  ARGV[9] lineRefs: json          journal refs JSON array
  Returns { ok: true, name: string }
  Refuses unauthorized (space gone) | not_found { inbox_id } | key_limit { max }
  Events: none; journal line connection.created.
]]
--- @include "refuse"
--- @include "appendJournal"
--- @include "replayedLine"
local replayed = replayedLine(KEYS[5], ARGV[7])
if replayed then return cjson.encode({ ok = true, name = replayed.data.name }) end
if redis.call('EXISTS', KEYS[1]) == 0 then return refuse('unauthorized') end
for _, inboxId in ipairs(cjson.decode(ARGV[6])) do
  if not redis.call('ZSCORE', KEYS[3], inboxId) then return refuse('not_found', { inbox_id = inboxId }) end
end
local taken, count = {}, 0
for _, json in ipairs(redis.call('HVALS', KEYS[2])) do
  local access = cjson.decode(json)
  if access.kind == 'connection' then
    taken[access.name_norm] = true
    count = count + 1
  end
end
if count >= tonumber(ARGV[5]) then return refuse('key_limit', { max = tonumber(ARGV[5]) }) end
local key = cjson.decode(ARGV[2])
local name, norm, n = key.name, key.name_norm, 1
while taken[norm] do
  n = n + 1
  name, norm = key.name .. ' (' .. n .. ')', key.name_norm .. ' (' .. n .. ')'
end
key.name, key.name_norm = name, norm
redis.call('HSET', KEYS[2], ARGV[1], cjson.encode(key))
redis.call('SET', KEYS[4], ARGV[3], 'PX', ARGV[4])
local line = cjson.decode(ARGV[8])
line.data.name = name
appendJournal(KEYS[5], KEYS[6], ARGV[7], cjson.encode(line), ARGV[9])
return cjson.encode({ ok = true, name = name })
