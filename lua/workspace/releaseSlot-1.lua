--[[
  Gives back a place taken by claimSlot (a wait that ended, an instance closed or never opened).
  KEYS[1] slots     sorted set member -> end (ms)
  ARGV[1] member: string  member
  Returns { released: boolean } // false: it had already ended or been given back
  Events: none.
]]
return cjson.encode({ released = redis.call('ZREM', KEYS[1], ARGV[1]) == 1 })
