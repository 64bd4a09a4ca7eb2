-- Checks a candidate against the pending 6-digit code in `codeKey` (actors/codes.ts): nil when it is the
-- code and still valid (the code is then spent), else the refusal to return. A wrong candidate counts an
-- attempt; the last allowed failure voids the code. `salt` is the one the candidate was hashed with:
-- another salt means the code changed meanwhile, and the candidate counts as wrong for the code in force.
--- @include "refuse"
local function checkPendingCode(codeKey, now, salt, hash, attemptsAllowed)
  local code = redis.call('HMGET', codeKey, 'salt', 'hash', 'expires_at', 'attempts')
  if not code[1] then return refuse('no_pending_code') end
  if now > tonumber(code[3]) then return refuse('code_expired') end
  if code[1] ~= salt or code[2] ~= hash then
    local left = attemptsAllowed - redis.call('HINCRBY', codeKey, 'attempts', 1)
    if left <= 0 then
      redis.call('DEL', codeKey)
      return refuse('too_many_attempts')
    end
    return refuse('invalid_code', { attempts_left = left })
  end
  redis.call('DEL', codeKey)
  return nil
end
