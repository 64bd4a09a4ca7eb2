-- Stores a connection's new access token (a string `<key id> <audience> <expiry ms> <scope>`: its end is
-- read by the injected clock, Redis's own expiry only clears it away) and refresh token (a hash of
-- `fields`, unused), each expiring (lua/space/issueTokens, rotateTokens).
local function storeTokens(accessKey, refreshKey, keyId, audience, accessLifeMs, fields, refreshLifeMs, now, scope)
  redis.call('SET', accessKey, keyId .. ' ' .. audience .. ' ' .. string.format('%d', now + accessLifeMs) .. ' ' .. scope, 'PX', accessLifeMs)
  for field, value in pairs(fields) do redis.call('HSET', refreshKey, field, value) end
  redis.call('HSET', refreshKey, 'used', '0')
  redis.call('PEXPIRE', refreshKey, refreshLifeMs)
end
