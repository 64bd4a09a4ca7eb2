--[[
  Declares the space's webhook (set_webhook): the 60 s gap between declarations, the 24 h limit and
  the replacement decided together, so concurrent calls never exceed a limit. Creates the stream's
  consumer group on the first declaration (deliveries start with the events that follow); a
  replacement keeps the group, so events not yet delivered go to the new address, at once (the retry
  state of the old one is cleared). Appends `webhook.test`, which only the webhook receives.
  KEYS[1] space                hash of the space's fields
  KEYS[2] webhook              hash of the declared webhook
  KEYS[3] webhookDeclarations  sorted set declaration time (ms) by journal line id
  KEYS[4] events               stream of the space's events
  KEYS[5] journal              hash line id -> line JSON
  KEYS[6] journalIndex         hash: the index lists of line id bodies (journalIndexAdd)
  ARGV[1] url: string     url (normalised)
  ARGV[2] secret: string  secret, sealed under the master key
  ARGV[3] now: number     now (ms)
  ARGV[4] gap: number     least gap between two declarations (ms)
  ARGV[5] perDay: number  declarations allowed per 24 h
  ARGV[6] group: string   consumer group name of the webhook workers
  ARGV[7] lineId: string  journal line id
  ARGV[8] lineJson: json  journal line JSON (data.replaced is set here)
  ARGV[9] lineRefs: json  journal refs JSON array
  ARGV[10] event: string  packed event (actors/events.ts prepareEvent) (webhook.test)
  Returns { replaced: boolean }
  Refuses unauthorized (space gone) | webhook_too_soon { retry_after_seconds } | space_rate_limited { retry_after_seconds }
  Events: webhook.test (webhook only); journal line webhook.declared.
]]
--- @include "refuse"
--- @include "spaceRateLimited"
--- @include "spendRollingLimit"
--- @include "appendJournal"
--- @include "appendEvent"
--- @include "webhookDeclared"
--- @include "replayedLine"
local replayed = replayedLine(KEYS[5], ARGV[7])
if replayed then return cjson.encode({ replaced = replayed.data.replaced }) end
if redis.call('EXISTS', KEYS[1]) == 0 then return refuse('unauthorized') end
local now = tonumber(ARGV[3])
local last = tonumber(redis.call('HGET', KEYS[2], 'declared_at') or '0')
local gap = tonumber(ARGV[4])
if last > 0 and now - last < gap then
  return refuse('webhook_too_soon', { retry_after_seconds = math.max(math.ceil((last + gap - now) / 1000), 1) })
end
local limited = spaceRateLimited(KEYS[3], now, tonumber(ARGV[5]))
if limited then return limited end
local replaced = webhookDeclared(KEYS[2])
redis.call('HSET', KEYS[2], 'url', ARGV[1], 'secret', ARGV[2], 'declared_at', ARGV[3],
  'attempts', 0, 'next_at', 0, 'last_error', '')
spendRollingLimit(KEYS[3], now, ARGV[7])
if not replaced then
  local created = redis.pcall('XGROUP', 'CREATE', KEYS[4], ARGV[6], '$', 'MKSTREAM')
  if type(created) == 'table' and created.err and not string.find(created.err, 'BUSYGROUP', 1, true) then error(created.err) end
end
local line = cjson.decode(ARGV[8])
line.data.replaced = replaced
appendJournal(KEYS[5], KEYS[6], ARGV[7], cjson.encode(line), ARGV[9])
appendEvent(KEYS[4], ARGV[10])
return cjson.encode({ replaced = replaced })
