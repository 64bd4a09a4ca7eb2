-- An idempotency key already used: the same content is a replay (the message it made), another
-- content a conflict. Nil when the key is new, or when the call has none (`contentHash` '').
-- The key holds "<message id> <content hash>" (createOutbound writes it with the message).
--- @include "refuse"
local function idempotencyAnswer(idempotencyKey, contentHash)
  if contentHash == '' then return nil end
  local seen = redis.call('GET', idempotencyKey)
  if not seen then return nil end
  local id, hash = string.match(seen, '^(%S+) (%S+)$')
  if hash == contentHash then return cjson.encode({ replayed = true, message_id = id }) end
  return refuse('idempotency_conflict')
end
