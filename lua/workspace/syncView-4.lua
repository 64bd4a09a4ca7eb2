--[[
  The view's call (workspace_events), in one atomic step: checks the instance and the sequences,
  pushes its expiry 30 minutes on, records what the view processed, then closes it, sets a local
  navigation barrier, hands over the latest command, or tells where to wait from.
  KEYS[1] instance    hash of the instance
  KEYS[2] waits       sorted set of the waits held on it (dropped at close)
  KEYS[3] wake        stream the waits block on
  KEYS[4] workspaces  sorted set instance id -> expiry (ms), the space's open instances
  ARGV[1] now: number          now (ms)
  ARGV[2] accessId: string     calling access id
  ARGV[3] fingerprint: string  fingerprint of the calling access's rights
  ARGV[4] after: number        after_sequence (last command the view received)
  ARGV[5] ack: number | ''     ack_sequence, '' when not given
  ARGV[6] mode: 'read' | 'barrier' | 'close'  what the view asks
  ARGV[7] lifetime: number     instance lifetime after this call (ms)
  Returns { closed: true, sequence: number } | { barrier: true, sequence: number, superseded: boolean }
    | { deliver: true, sequence: number, route: string } // route: its JSON
    | { superseded: true, sequence: number }
    | { wait: true, sequence: number, from: string } // from: the stream id to block after
  Refuses workspace_expired | access_changed | invalid_argument { parameter }
  Events: none.
]]
--- @include "refuse"
--- @include "hashToTable"
--- @include "instanceRefusal"
local now, after = tonumber(ARGV[1]), tonumber(ARGV[4])
local instance = hashToTable(KEYS[1])
local refusal = instanceRefusal(instance, now, ARGV[2], ARGV[3])
if refusal then return refusal end
local sequence = tonumber(instance.sequence)
if after > sequence then return refuse('invalid_argument', { parameter = 'after_sequence' }) end
if ARGV[5] ~= '' and tonumber(ARGV[5]) > sequence then return refuse('invalid_argument', { parameter = 'ack_sequence' }) end

if ARGV[6] == 'close' then
  redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
  redis.call('ZREM', KEYS[4], instance.instance_id)
  return cjson.encode({ closed = true, sequence = sequence })
end

local expires = now + tonumber(ARGV[7])
local fields = { 'expires_at', expires }
if ARGV[5] ~= '' and tonumber(ARGV[5]) > tonumber(instance.acked) then
  table.insert(fields, 'acked')
  table.insert(fields, tonumber(ARGV[5]))
end
if ARGV[6] == 'barrier' then
  table.insert(fields, 'sequence')
  table.insert(fields, sequence + 1)
end
redis.call('HSET', KEYS[1], unpack(fields))
for _, key in ipairs({ KEYS[1], KEYS[2], KEYS[3] }) do redis.call('PEXPIRE', key, tonumber(ARGV[7])) end
redis.call('ZADD', KEYS[4], 'XX', expires, instance.instance_id)

if ARGV[6] == 'barrier' then
  redis.call('XADD', KEYS[3], 'MAXLEN', '~', 16, '*', 's', sequence + 1)
  return cjson.encode({ barrier = true, sequence = sequence + 1, superseded = sequence > after })
end
if sequence > after then
  if tonumber(instance.route_sequence) == sequence then
    return cjson.encode({ deliver = true, sequence = sequence, route = instance.route })
  end
  return cjson.encode({ superseded = true, sequence = sequence })
end
local last = redis.call('XREVRANGE', KEYS[3], '+', '-', 'COUNT', 1)[1]
return cjson.encode({ wait = true, sequence = sequence, from = last and last[1] or '0-0' })
