--[[
  Deletes an audience (delete_audience), refused while a running or paused campaign feeds from it
  (`live`, counted by lua/campaign/startCampaign and finishCampaign). Its contacts stay in the space.
  KEYS[1] audience         hash of the audience's fields
  KEYS[2] audienceMembers  sorted set address -> rank
  KEYS[3] audiences        sorted set of the space's audience ids
  KEYS[4] journal          hash line id -> line JSON
  KEYS[5] journalIndex     hash: the index lists of line id bodies (journalIndexAdd)
  ARGV[1] audienceId: string  audience id
  ARGV[2] lineId: string      journal line id
  ARGV[3] lineJson: json      journal line JSON (audience.deleted; the script sets data.contact_count)
  ARGV[4] lineRefs: json      journal refs JSON array
  Returns { contact_count: number }
  Refuses not_found | audience_in_use { campaign_id }
  Events: none; journal line audience.deleted.
]]
--- @include "refuse"
--- @include "appendJournal"
--- @include "replayedLine"
local replayed = replayedLine(KEYS[4], ARGV[2])
if replayed then return cjson.encode({ contact_count = replayed.data.contact_count }) end
local fields = redis.call('HMGET', KEYS[1], 'id', 'live', 'live_campaign')
if not fields[1] then return refuse('not_found') end
if tonumber(fields[2] or '0') > 0 then return refuse('audience_in_use', { campaign_id = fields[3] }) end
local count = redis.call('ZCARD', KEYS[2])
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('ZREM', KEYS[3], ARGV[1])
local line = cjson.decode(ARGV[3])
line.data.contact_count = count
appendJournal(KEYS[4], KEYS[5], ARGV[2], cjson.encode(line), ARGV[4])
return cjson.encode({ contact_count = count })
