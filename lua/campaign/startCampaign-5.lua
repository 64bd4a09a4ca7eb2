--[[
  Starts a draft campaign or resumes a paused one (start_campaign): status running, started by the
  calling key (the feeder sends under its rights and caps). A running one is answered as it is.
  Starting counts the campaign in its audience's `live`, which delete_audience reads.
  KEYS[1] campaign      hash of the campaign's fields
  KEYS[2] audience      hash of its audience's fields
  KEYS[3] events        stream of the space's events
  KEYS[4] journal       hash line id -> line JSON
  KEYS[5] journalIndex  hash: the index lists of line id bodies (journalIndexAdd)
  ARGV[1] nowIso: string  now, ISO 8601
  ARGV[2] keyId: string   the starting key's id
  ARGV[3] lineId: string  journal line id
  ARGV[4] lineJson: json  journal line JSON (campaign.started)
  ARGV[5] lineRefs: json  journal refs JSON array
  ARGV[6] event: string   packed event (actors/events.ts prepareEvent) (mail.campaign.started)
  Returns { status: 'running', was: 'draft' | 'paused' | 'running' }
  Refuses not_found | campaign_not_startable { status }
  Events: mail.campaign.started; journal line campaign.started (not for a running one).
]]
--- @include "refuse"
--- @include "appendJournal"
--- @include "appendEvent"
--- @include "replayedLine"
local replayed = replayedLine(KEYS[4], ARGV[3])
if replayed then return cjson.encode({ status = 'running', was = replayed.data.resumed and 'paused' or 'draft' }) end
local fields = redis.call('HMGET', KEYS[1], 'id', 'status')
if not fields[1] then return refuse('not_found') end
local was = fields[2]
if was == 'running' then return cjson.encode({ status = 'running', was = was }) end
if was ~= 'draft' and was ~= 'paused' then return refuse('campaign_not_startable', { status = was }) end
if was == 'draft' then
  if redis.call('EXISTS', KEYS[2]) == 0 then return refuse('not_found') end
  redis.call('HINCRBY', KEYS[2], 'live', '1')
  redis.call('HSET', KEYS[2], 'live_campaign', fields[1])
  redis.call('HSET', KEYS[1], 'started_at', ARGV[1])
end
redis.call('HSET', KEYS[1], 'status', 'running', 'started_by', ARGV[2])
local line = cjson.decode(ARGV[4])
line.data.resumed = was == 'paused'
appendJournal(KEYS[4], KEYS[5], ARGV[3], cjson.encode(line), ARGV[5])
appendEvent(KEYS[3], ARGV[6])
return cjson.encode({ status = 'running', was = was })
