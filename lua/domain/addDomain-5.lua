--[[
  Registers a domain for the space, `pending` until verify_domain finds its records: the domain count
  and uniqueness decided together, so concurrent calls never exceed the limit.
  KEYS[1] space         hash of the space's fields
  KEYS[2] domains       hash domain name -> domain id
  KEYS[3] domain        hash of the new domain's fields
  KEYS[4] journal       hash line id -> line JSON
  KEYS[5] journalIndex  hash: the index lists of line id bodies (journalIndexAdd)
  ARGV[1] domainId: string    domain id
  ARGV[2] name: string        domain name
  ARGV[3] fields: json        domain fields as JSON object (string values)
  ARGV[4] maxDomains: number  domains allowed per space
  ARGV[5] lineId: string      journal line id
  ARGV[6] lineJson: json      journal line JSON
  ARGV[7] lineRefs: json      journal refs JSON array
  Returns { ok: true }
  Refuses unauthorized (space gone) | domain_exists | domain_limit
  Events: none; journal line domain.added.
]]
--- @include "refuse"
--- @include "appendJournal"
--- @include "replayedLine"
if replayedLine(KEYS[4], ARGV[5]) then return cjson.encode({ ok = true }) end
if redis.call('EXISTS', KEYS[1]) == 0 then return refuse('unauthorized') end
if redis.call('HEXISTS', KEYS[2], ARGV[2]) == 1 then return refuse('domain_exists') end
if redis.call('HLEN', KEYS[2]) >= tonumber(ARGV[4]) then return refuse('domain_limit') end
for field, value in pairs(cjson.decode(ARGV[3])) do redis.call('HSET', KEYS[3], field, value) end
redis.call('HSET', KEYS[2], ARGV[2], ARGV[1])
appendJournal(KEYS[4], KEYS[5], ARGV[5], ARGV[6], ARGV[7])
return cjson.encode({ ok = true })
