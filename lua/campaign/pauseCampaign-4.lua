--[[
  Pauses a running campaign (pause_campaign): from this script on, the feeder creates nothing for it;
  the caller then holds its queued messages (lua/campaign/holdMessage).
  KEYS[1] campaign      hash of the campaign's fields
  KEYS[2] events        stream of the space's events
  KEYS[3] journal       hash line id -> line JSON
  KEYS[4] journalIndex  hash: the index lists of line id bodies (journalIndexAdd)
  ARGV[1] lineId: string  journal line id
  ARGV[2] lineJson: json  journal line JSON (campaign.paused)
  ARGV[3] lineRefs: json  journal refs JSON array
  ARGV[4] event: string   packed event (actors/events.ts prepareEvent) (mail.campaign.paused)
  Returns { status: 'paused' }
  Refuses not_found | campaign_not_running { status }
  Events: mail.campaign.paused; journal line campaign.paused.
]]
--- @include "refuse"
--- @include "appendJournal"
--- @include "appendEvent"
--- @include "replayedLine"
if replayedLine(KEYS[3], ARGV[1]) then return cjson.encode({ status = 'paused' }) end
local fields = redis.call('HMGET', KEYS[1], 'id', 'status')
if not fields[1] then return refuse('not_found') end
if fields[2] ~= 'running' then return refuse('campaign_not_running', { status = fields[2] }) end
redis.call('HSET', KEYS[1], 'status', 'paused')
appendJournal(KEYS[3], KEYS[4], ARGV[1], ARGV[2], ARGV[3])
appendEvent(KEYS[2], ARGV[4])
return cjson.encode({ status = 'paused' })
