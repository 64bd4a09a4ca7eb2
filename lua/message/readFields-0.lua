--[[
  Reads the same fields of several messages in one answer: the messages that stored events name, when
  their envelopes are read (completeEnvelopes in actors/events.ts). Read-only. A script, not pipelined
  HMGETs, because the client decodes every value of a reply as a string of its own: a page of 100
  such events cost ioredis 1.46 ms of CPU as 100 HMGETs of 17 fields, 0.19 ms as this one JSON string
  (BENCHMARKS.md, "Events").
  KEYS[1 ..] messages   hashes of the messages, in the caller's order
  ARGV[1 ..] the fields to read, in order
  Returns [[value or false, ...], ...]: for each message, its fields' values in ARGV's order, false for
  an absent field (every one, for a message no longer stored).
  Events: none.
]]
local answer = {}
for i, key in ipairs(KEYS) do answer[i] = redis.call('HMGET', key, unpack(ARGV)) end
return cjson.encode(answer)
