--[[
  A page of one journal index list, newest first: the line id bodies of `prefix` below ARGV[2] and not
  below ARGV[3], at most ARGV[4] of them (list_events, actors/journal.ts; the walk is journalWalk's).
  Reads only.
  KEYS[1] journalIndex  hash: the index lists of line id bodies (journalIndexAdd)
  ARGV[1] prefix: string  the list's prefix (`* `, an object id, `c:<email> `, `d:<domain> `)
  ARGV[2] below: string   upper bound, excluded: a body or the start of one (a time); '' for none
  ARGV[3] from: string    lower bound, included: the same; '' for none
  ARGV[4] count: number   how many bodies at most
  Returns { bodies: string } // the bodies, 20 characters each, newest first
  Events: none.
]]
--- @include "journalWalk"
return cjson.encode({ bodies = table.concat(journalWalk(KEYS[1], ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4]))) })
