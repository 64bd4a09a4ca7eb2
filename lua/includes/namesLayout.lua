-- The layout of a space's history name buckets (actors/history-names.ts): "<buckets> <split>", split ''
-- when they are not growing; a space without history has one bucket.
local function namesLayout(historyKey)
  local layout = redis.call('HMGET', historyKey, 'buckets', 'split')
  return (layout[1] or '1') .. ' ' .. (layout[2] or '')
end
