--[[
  Finishes a running campaign once nothing is left to write: no audience member past its cursor, no
  contact pending, claimed or waiting for a follow-up. Its audience no longer counts it (`live`).
  Messages already queued still leave.
  KEYS[1] campaign          hash of the campaign's fields (status, cursor)
  KEYS[2] audience          hash of its audience's fields (live)
  KEYS[3] audienceMembers   sorted set address -> rank
  KEYS[4] campaignClaims    sorted set address -> claim time (ms)
  KEYS[5] campaignPending   sorted set address -> rank, handed back
  KEYS[6] campaignFollowUps sorted set address -> when the next follow-up is due (ms)
  KEYS[7] events            stream of the space's events
  KEYS[8] journal           hash line id -> line JSON
  KEYS[9] journalIndex      hash: the index lists of line id bodies (journalIndexAdd)
  ARGV[1] nowIso: string  now, ISO 8601
  ARGV[2] lineId: string  journal line id
  ARGV[3] lineJson: json  journal line JSON (campaign.finished)
  ARGV[4] lineRefs: json  journal refs JSON array
  ARGV[5] event: string   packed event (actors/events.ts prepareEvent) (mail.campaign.finished)
  Returns { finished: boolean }
  Events: mail.campaign.finished; journal line campaign.finished.
]]
--- @include "appendJournal"
--- @include "appendEvent"
--- @include "countDown"
--- @include "replayedLine"
if replayedLine(KEYS[8], ARGV[2]) then return cjson.encode({ finished = true }) end
if redis.call('HGET', KEYS[1], 'status') ~= 'running' then return cjson.encode({ finished = false }) end
local cursor = redis.call('HGET', KEYS[1], 'cursor') or '0'
if #redis.call('ZRANGEBYSCORE', KEYS[3], '(' .. cursor, '+inf', 'LIMIT', '0', '1') > 0
  or redis.call('ZCARD', KEYS[4]) > 0 or redis.call('ZCARD', KEYS[5]) > 0 or redis.call('ZCARD', KEYS[6]) > 0 then
  return cjson.encode({ finished = false })
end
redis.call('HSET', KEYS[1], 'status', 'finished', 'finished_at', ARGV[1])
countDown(KEYS[2], 'live')
appendJournal(KEYS[8], KEYS[9], ARGV[2], ARGV[3], ARGV[4])
appendEvent(KEYS[7], ARGV[5])
return cjson.encode({ finished = true })
