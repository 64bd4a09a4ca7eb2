-- Departure planning for one inbox: the earliest moment, not before `earliest`, at least `spacingMs`
-- after the inbox's latest reserved departure, inside an open interval whose day still has quota.
-- `intervals` = "<day> <start> <end> <quota>,..." in time order (built by the caller from the sending
-- window and the warm-up: src/sending/plan.ts). A string read lazily: most searches stop at the first
-- interval, and a list decoded from JSON cost more than the search. The pattern matches the day's exact
-- shape: a looser one (`%S+`) took the separating comma into the day, and every day after the first
-- was reserved under a field `,<day>` its departures never read. Reads only; `commitSlot` writes, given
-- the inbox's reserved departures as read here (the third answer). The first interval's day count is
-- read with them, and `also` when given (a field of the slots hash the caller needs: its value is the
-- third answer's [4]): one read for a search that stops at the first interval.
-- `priority` (a reply in a conversation, docs/tools.md "Reply priority"): departures reserved later than
-- `earliest` (first messages waiting for the window) do not push it back; it is spaced from the latest
-- reply reserved (`reply_last`) and from a departure reserved up to `earliest` only.
local function findSlot(slotsKey, intervals, earliest, spacingMs, priority, also)
  local firstDay = string.match(intervals, '^(%d%d%d%d%-%d%d%-%d%d) ') or 'last'
  local reserved = redis.call('HMGET', slotsKey, 'last', 'reply_last', firstDay, also or firstDay)
  local last = tonumber(reserved[1] or '0')
  if priority then
    local replyLast = tonumber(reserved[2] or '0')
    last = last <= earliest and math.max(last, replyLast) or replyLast
  end
  local from = earliest
  if last > 0 and last + spacingMs > from then from = last + spacingMs end
  for day, first, stop, quota in string.gmatch(intervals, '(%d%d%d%d%-%d%d%-%d%d) (%d+) (%d+) (%d+)') do
    stop = tonumber(stop)
    if stop > from then
      local used = reserved[3]
      if day ~= firstDay then used = redis.call('HGET', slotsKey, day) end
      used = tonumber(used or '0')
      if used < tonumber(quota) then
        local slot = math.max(tonumber(first), from)
        if slot < stop then return slot, day, reserved end
      end
    end
  end
  return nil, nil
end
