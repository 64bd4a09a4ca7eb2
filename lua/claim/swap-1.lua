--[[
  Compare-and-set of a global claim (an address or a domain, each under its own hash tag): the claim
  moves only from the value the caller last saw, so two front ends can never both take or drop it.
  KEYS[1] claim     string, the claim's JSON value (src/redis/keys.ts globalKeys)
  ARGV[1] expected: string  expected current value; '' = the claim must not exist
  ARGV[2] next: string      new value; '' = delete the claim
  Returns { ok: true } | { ok: false, current: string | null } // false: the claim is not what was expected
  A claim that already holds the new value answers ok: a value names its claimant, so that is this
  call's first run (a resend after a lost reply), not another's move. A removal run twice answers
  ok false the second time (an absent claim does not say who removed it): the claim is gone either way.
  Events: none.
]]
local current = redis.call('GET', KEYS[1])
if ARGV[2] ~= '' and current == ARGV[2] then return cjson.encode({ ok = true }) end
if (current or '') ~= ARGV[1] then
  return cjson.encode({ ok = false, current = current or cjson.null })
end
if ARGV[2] == '' then
  redis.call('DEL', KEYS[1])
else
  redis.call('SET', KEYS[1], ARGV[2])
end
return cjson.encode({ ok = true })
