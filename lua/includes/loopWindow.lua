-- The loop guard's window of a thread, from its hash's stored `loop_window` ("<ms> <message id>"
-- entries, oldest first, comma-separated; false or nil when absent): the entries created after `since`
-- (ms), but the message `without` (nil: all). At most the guard's limit stay in it, so it lives in the
-- thread hash, not in a key of its own.
local function loopWindow(stored, since, without)
  local entries = {}
  for ms, id in string.gmatch(stored or '', '(%d+) ([^,]+)') do
    if tonumber(ms) > since and id ~= without then entries[#entries + 1] = ms .. ' ' .. id end
  end
  return entries
end
