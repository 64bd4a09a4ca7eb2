--[[
  Takes a place in one of the workspace's bounded sets (actors/workspace.ts): the service's open
  instances, the service's waits, an instance's waits. A place ends by itself at its end time, so
  a front end that died holding one does not hold it for ever.
  KEYS[1] slots     sorted set member -> end (ms)
  ARGV[1] now (ms)
  ARGV[2] member
  ARGV[3] end of the place (ms)
  ARGV[4] most places held at once
  ARGV[5] refusal code when full (workspace_capacity or workspace_busy)
  ARGV[6] hint JSON of that refusal
  Returns {"taken":true} | {"error":<ARGV[5]>,"hint":<ARGV[6]>}.
  Events: none.
]]
--- @include "refuse"
--- @include "takeSlot"
if not takeSlot(KEYS[1], tonumber(ARGV[1]), ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])) then
  return refuse(ARGV[5], cjson.decode(ARGV[6]))
end
return cjson.encode({ taken = true })
