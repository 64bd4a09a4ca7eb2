--[[
  Claims the next contacts of a running campaign for their first message from one inbox, as many as
  the inbox has room for: `target` (its quota for the days a campaign may queue) less what waits in it
  (queued and drafts) and less the campaign's claims for it not yet recorded (`claimed:<inbox id>`),
  all read here, so feeders running at once never fill it past the target. Contacts handed back come
  first (pending), then the audience's next members by rank (`cursor` moves on). Each claim writes the
  contact's state {"s":"claimed","k":0,"i":<inbox>,"at":ms} and scores it in the claims (a feeder that
  dies before recording is taken over after a lease). A pending contact no longer in the audience is
  skipped ({"s":"skipped","r":"removed"}).
  KEYS[1] campaign          hash of the campaign's fields (status, cursor, claimed:<inbox id>)
  KEYS[2] audienceMembers   sorted set address -> rank
  KEYS[3] campaignContacts  hash address -> state JSON
  KEYS[4] campaignClaims    sorted set address -> claim time (ms)
  KEYS[5] campaignPending   sorted set address -> rank, handed back
  KEYS[6] inbox             hash of the inbox's fields (queued, drafts)
  ARGV[1] now: number      now (ms)
  ARGV[2] inboxId: string  the inbox the claims are for
  ARGV[3] target: number   most messages of the inbox waiting at once
  Returns { claims: string[] | EmptyTable, exhausted: boolean }
    // claims: addresses; exhausted: no member left to claim, none pending
  Events: none; no journal line.
]]
if redis.call('HGET', KEYS[1], 'status') ~= 'running' then return cjson.encode({ claims = {}, exhausted = false }) end
local inboxId = ARGV[2]
local counters = redis.call('HMGET', KEYS[6], 'queued', 'drafts')
local claimedField = 'claimed:' .. inboxId
local room = tonumber(ARGV[3]) - tonumber(counters[1] or '0') - tonumber(counters[2] or '0')
  - tonumber(redis.call('HGET', KEYS[1], claimedField) or '0')
local claims = {}
local function claim(email)
  redis.call('HSET', KEYS[3], email, cjson.encode({ s = 'claimed', k = 0, i = inboxId, at = tonumber(ARGV[1]) }))
  redis.call('ZADD', KEYS[4], ARGV[1], email)
  claims[#claims + 1] = email
end
while #claims < room do
  local pending = redis.call('ZPOPMIN', KEYS[5])
  if #pending == 0 then break end
  if redis.call('ZSCORE', KEYS[2], pending[1]) then claim(pending[1])
  else redis.call('HSET', KEYS[3], pending[1], cjson.encode({ s = 'skipped', r = 'removed' })) end
end
local cursor = redis.call('HGET', KEYS[1], 'cursor') or '0'
while #claims < room do
  local members = redis.call('ZRANGEBYSCORE', KEYS[2], '(' .. cursor, '+inf', 'LIMIT', '0', '100')
  if #members == 0 then break end
  for _, email in ipairs(members) do
    if #claims >= room then break end
    cursor = redis.call('ZSCORE', KEYS[2], email)
    if redis.call('HEXISTS', KEYS[3], email) == 0 then claim(email) end
  end
end
redis.call('HSET', KEYS[1], 'cursor', cursor)
if #claims > 0 then redis.call('HINCRBY', KEYS[1], claimedField, #claims) end
local exhausted = redis.call('ZCARD', KEYS[5]) == 0 and #redis.call('ZRANGEBYSCORE', KEYS[2], '(' .. cursor, '+inf', 'LIMIT', '0', '1') == 0
return cjson.encode({ claims = claims, exhausted = exhausted })
