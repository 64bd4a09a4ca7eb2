--[[
  Registers a space that got a departure due at `at` in its shard of the due index (actors/due-index.ts):
  scored by the earliest due time it was registered with, and its mark counted up, so a worker that read
  the space empty before this registration does not drop it when it settles.
  KEYS[1] due    sorted set space id -> when its earliest departure is due (ms)
  KEYS[2] marks  hash space id -> how many registrations it had since it joined
  ARGV[1] spaceId: string  space id
  ARGV[2] at: number       when the departure is due (ms)
  Returns { ok: true }
  Events: none.
]]
redis.call('ZADD', KEYS[1], 'LT', ARGV[2], ARGV[1])
redis.call('HINCRBY', KEYS[2], ARGV[1], '1')
return cjson.encode({ ok = true })
