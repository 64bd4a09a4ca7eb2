-- Whether the space declares a webhook (its hash has a url): a script that wrote an event answers it,
-- so the caller wakes webhook delivery only when there is one (src/redis/scripts.ts, afterEvents).
local function webhookDeclared(webhookKey)
  return redis.call('HEXISTS', webhookKey, 'url') == 1
end
