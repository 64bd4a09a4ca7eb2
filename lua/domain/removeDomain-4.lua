--[[
  Removes a domain of the space, refused while a live inbox of the space is on it. Its fields go (a
  new registration gets new DKIM keys and a new token); the caller then releases its claim.
  KEYS[1] domains       hash domain name -> domain id
  KEYS[2] domain        hash of the domain's fields
  KEYS[3] journal       hash line id -> line JSON
  KEYS[4] journalIndex  hash: the index lists of line id bodies (journalIndexAdd)
  ARGV[1] name: string    domain name
  ARGV[2] lineId: string  journal line id
  ARGV[3] lineJson: json  journal line JSON
  ARGV[4] lineRefs: json  journal refs JSON array
  Returns { id: string } // the domain's id
  Refuses not_found | domain_in_use
  Events: none; journal line domain.removed.
]]
--- @include "refuse"
--- @include "appendJournal"
--- @include "replayedLine"
local replayed = replayedLine(KEYS[3], ARGV[2])
if replayed then return cjson.encode({ id = replayed.data.domain_id }) end
local id = redis.call('HGET', KEYS[1], ARGV[1])
if not id then return refuse('not_found') end
if tonumber(redis.call('HGET', KEYS[2], 'live_inboxes') or '0') > 0 then return refuse('domain_in_use') end
redis.call('DEL', KEYS[2])
redis.call('HDEL', KEYS[1], ARGV[1])
-- The id goes in the line: a second run for this call answers it from there.
local line = cjson.decode(ARGV[3])
line.data.domain_id = id
appendJournal(KEYS[3], KEYS[4], ARGV[2], cjson.encode(line), ARGV[4])
return cjson.encode({ id = id })
