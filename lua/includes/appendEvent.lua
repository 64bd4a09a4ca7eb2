-- Event writer: the envelope JSON (built by the caller, id `evt_...`) appended to the space's stream,
-- in the same script as the state change it reports. The stream is the outbox that event_feed and the
-- webhook workers read.
local function appendEvent(eventsKey, eventJson)
  redis.call('XADD', eventsKey, '*', 'e', eventJson)
end
