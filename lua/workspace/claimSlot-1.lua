--[[
  Takes a place in one of the workspace's bounded sets (actors/workspace.ts): the service's open
  instances, the service's waits, an instance's waits. A place ends by itself at its end time, so
  a front end that died holding one does not hold it for ever.
  KEYS[1] slots     sorted set member -> end (ms)
  ARGV[1] now: number     now (ms)
  ARGV[2] member: string  member
  ARGV[3] endsAt: number  end of the place (ms)
  ARGV[4] max: number     most places held at once
  ARGV[5] refusal: 'workspace_capacity' | 'workspace_busy'  the refusal when full
  ARGV[6] hint: json      hint JSON of that refusal
  Returns { taken: true }
  Refuses workspace_capacity | workspace_busy (the one of ARGV[5], ARGV[6] its hint)
  Events: none.
]]
--- @include "refuse"
--- @include "takeSlot"
if not takeSlot(KEYS[1], tonumber(ARGV[1]), ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])) then
  return refuse(ARGV[5], cjson.decode(ARGV[6]))
end
return cjson.encode({ taken = true })
