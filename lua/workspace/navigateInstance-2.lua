--[[
  The assistant drives the view (navigate_workspace): a route other than the one shown raises the
  sequence, becomes the route, and wakes the waiting views on every front end; the same route as
  the latest command, with no local navigation since, changes nothing.
  KEYS[1] instance  hash of the instance (actors/workspace.ts)
  KEYS[2] wake      stream the waits block on
  ARGV[1] now: number          now (ms)
  ARGV[2] accessId: string     calling access id
  ARGV[3] fingerprint: string  fingerprint of the calling access's rights
  ARGV[4] route: json          route JSON (canonical: keys sorted, so equal routes are equal texts)
  Returns { unchanged: boolean, sequence: number }
  Refuses workspace_expired | access_changed
  Events: none.
]]
--- @include "refuse"
--- @include "hashToTable"
--- @include "instanceRefusal"
local now = tonumber(ARGV[1])
local instance = hashToTable(KEYS[1])
local refusal = instanceRefusal(instance, now, ARGV[2], ARGV[3])
if refusal then return refusal end
local sequence = tonumber(instance.sequence)
if instance.route == ARGV[4] and tonumber(instance.route_sequence) == sequence then
  return cjson.encode({ unchanged = true, sequence = sequence })
end
sequence = sequence + 1
redis.call('HSET', KEYS[1], 'sequence', sequence, 'route', ARGV[4], 'route_sequence', sequence)
redis.call('XADD', KEYS[2], 'MAXLEN', '~', 16, '*', 's', sequence)
redis.call('PEXPIRE', KEYS[2], math.max(1, tonumber(instance.expires_at) - now))
return cjson.encode({ unchanged = false, sequence = sequence })
