import { completeEnvelopes, type Envelope } from '../../actors/events.js';
import { spaceKeys } from '../../src/redis/keys.js';
import type { Runtime } from '../../src/runtime.js';

/** Every envelope of a space's stream, webhook.test included, as its readers deliver them (the stored entries are positional). */
export const streamEnvelopes = async (rt: Runtime, spaceId: string): Promise<Envelope[]> =>
  (await completeEnvelopes(rt, spaceId, await rt.redis.xrange(spaceKeys(spaceId).events, '-', '+'))) as Envelope[];
