--[[
  Drops a space's events past their retention (eventsKeptFrom), as an append would: the history mover
  runs it at each visit, so a space that writes nothing keeps no event past its time either.
  KEYS[1] events  stream: the space's events
  ARGV[1] now: number  ms
  Returns { trimmed: number }
  Events: none.
]]
--- @include "eventsKeptFrom"
return cjson.encode({ trimmed = redis.call('XTRIM', KEYS[1], 'MINID', eventsKeptFrom(tonumber(ARGV[1]))) })
