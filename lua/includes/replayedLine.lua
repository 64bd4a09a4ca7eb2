-- A call's operation id is the journal line id its caller prepared for it (actors/journal.ts). A script
-- can run twice for one call: ioredis sends a command again after a reconnection when the connection
-- dropped before its reply came back, though Redis may have run it. The first run wrote the line in the
-- same atomic step as its changes, so when the line is there the script writes nothing and answers the
-- first run's success from the state and this line (docs/architecture.md, "Scripts": the guard of each).
-- Returns the line the first run wrote, decoded, or nil on a first run (and for a call with no line).
local function replayedLine(journalKey, lineId)
  if lineId == '' then return nil end
  local line = redis.call('HGET', journalKey, lineId)
  return line and cjson.decode(line) or nil
end
