--[[
  Creates a campaign in status draft (create_campaign), the caller having checked its inboxes and that
  every contact of the audience fills its placeholders.
  KEYS[1] audience      hash of the audience's fields (the campaign feeds from it: it must still exist)
  KEYS[2] campaigns     sorted set (score 0, lex) of the space's campaign ids
  KEYS[3] campaign      hash of the new campaign's fields
  KEYS[4] journal       hash line id -> line JSON
  KEYS[5] journalIndex  hash: the index lists of line id bodies (journalIndexAdd)
  KEYS[6] space         hash of the space's fields (a space erased meanwhile gets nothing written)
  ARGV[1] campaignId: string  campaign id
  ARGV[2] lineId: string      journal line id
  ARGV[3] lineJson: json      journal line JSON (campaign.created)
  ARGV[4] lineRefs: json      journal refs JSON array
  ARGV[5 ..] fields: pairs    the campaign's fields and values
  Returns { ok: true }
  Refuses not_found (the audience or the space is gone)
  Events: none; journal line campaign.created.
]]
--- @include "refuse"
--- @include "appendJournal"
--- @include "replayedLine"
if replayedLine(KEYS[4], ARGV[2]) then return cjson.encode({ ok = true }) end
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('EXISTS', KEYS[6]) == 0 then return refuse('not_found') end
redis.call('HSET', KEYS[3], unpack(ARGV, 5, #ARGV))
redis.call('ZADD', KEYS[2], '0', ARGV[1])
appendJournal(KEYS[4], KEYS[5], ARGV[2], ARGV[3], ARGV[4])
return cjson.encode({ ok = true })
