--[[
  Opens a workspace instance (open_workspace) for an access of the space: sequence 0, its first
  route, at most ARGV[5] open at once in the space.
  KEYS[1] space       hash of the space's fields (a space erased meanwhile gets nothing written)
  KEYS[2] workspaces  sorted set instance id -> expiry (ms)
  KEYS[3] instance    hash of the new instance
  ARGV[1] instanceId: string  instance id
  ARGV[2] now: number         now (ms)
  ARGV[3] expiresAt: number   expiry (ms)
  ARGV[4] instance: json      instance JSON {key_id, access, route} (access: the fingerprint of the access's rights)
  ARGV[5] max: number         most instances open at once in a space
  Returns { opened: true }
  Refuses not_found (no such space) | workspace_capacity { max }
  Events: none.
]]
--- @include "refuse"
--- @include "takeSlot"
if redis.call('EXISTS', KEYS[1]) == 0 then return refuse('not_found') end
local now, expires = tonumber(ARGV[2]), tonumber(ARGV[3])
if not takeSlot(KEYS[2], now, ARGV[1], expires, tonumber(ARGV[5])) then
  return refuse('workspace_capacity', { max = tonumber(ARGV[5]) })
end
local instance = cjson.decode(ARGV[4])
redis.call('HSET', KEYS[3], 'instance_id', ARGV[1], 'key_id', instance.key_id, 'access', instance.access, 'route', instance.route,
  'sequence', 0, 'route_sequence', 0, 'acked', 0, 'expires_at', expires)
redis.call('PEXPIRE', KEYS[3], expires - now)
return cjson.encode({ opened = true })
