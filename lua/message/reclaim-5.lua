--[[
  Puts back in the queue a message whose delivery lease expired (its worker died or hung): it leaves
  again at once. The attempt counter is kept, so the dead worker's late answer is refused as stale.
  KEYS[1] message     hash of the message
  KEYS[2] sending     sorted set of messages being delivered, by lease end (ms)
  KEYS[3] inbox       hash of the sending inbox (its `queued` counter)
  KEYS[4] inboxQueue  sorted set of the inbox's queued message ids by departure (ms)
  KEYS[5] queue       sorted set of the space's queued message ids by departure (ms)
  ARGV[1] messageId: string  message id
  ARGV[2] now: number        now (ms)
  Returns { reclaimed: boolean } // false: its lease is still running, or it is not sending
  Events: none.
]]
local id, now = ARGV[1], tonumber(ARGV[2])
local lease = redis.call('ZSCORE', KEYS[2], id)
if not lease or tonumber(lease) > now or redis.call('HGET', KEYS[1], 'status') ~= 'sending' then
  if lease and redis.call('HGET', KEYS[1], 'status') ~= 'sending' then redis.call('ZREM', KEYS[2], id) end
  return cjson.encode({ reclaimed = false })
end
redis.call('ZREM', KEYS[2], id)
redis.call('HSET', KEYS[1], 'status', 'queued', 'slot', now)
redis.call('ZADD', KEYS[4], now, id)
redis.call('ZADD', KEYS[5], now, id)
redis.call('HINCRBY', KEYS[3], 'queued', 1)
return cjson.encode({ reclaimed = true })
