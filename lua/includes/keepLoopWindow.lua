-- Writes a thread's loop guard window (entries as loopWindow reads them); none leaves no field.
local function keepLoopWindow(threadKey, entries)
  if #entries == 0 then
    redis.call('HDEL', threadKey, 'loop_window')
  else
    redis.call('HSET', threadKey, 'loop_window', table.concat(entries, ','))
  end
end
