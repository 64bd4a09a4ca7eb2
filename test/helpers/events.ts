import { completeEnvelopes, type Envelope } from '../../actors/events.js';
import { readJournal, type StoredLine } from '../../actors/journal.js';
import { spaceKeys } from '../../src/redis/keys.js';
import type { Runtime } from '../../src/runtime.js';

/** Every envelope of a space's stream, webhook.test included, as its readers deliver them (the stored entries are positional). */
export const streamEnvelopes = async (rt: Runtime, spaceId: string): Promise<Envelope[]> =>
  (await completeEnvelopes(rt, spaceId, await rt.redis.xrange(spaceKeys(spaceId).events, '-', '+'))) as Envelope[];

/** Every journal line of a space, newest first, as list_events reads them (the stored lines are compact). */
export const journalLines = async (rt: Runtime, spaceId: string): Promise<StoredLine[]> =>
  (await readJournal(rt, spaceId, { ref: '*', from: null, to: null, before: null, limit: 10_000, visible: () => true })).lines;
