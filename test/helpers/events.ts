import { completeEnvelopes, type Envelope } from '../../actors/events.js';
import { readJournal, type StoredLine } from '../../actors/journal.js';
import { spaceKeys } from '../../src/redis/keys.js';
import type { Runtime } from '../../src/runtime.js';

/** Every envelope of a space's stream, webhook.test included, as its readers deliver them (the stored entries are positional). */
export const streamEnvelopes = async (rt: Runtime, spaceId: string): Promise<Envelope[]> =>
  (await completeEnvelopes(rt, spaceId, await rt.redis.xrange(spaceKeys(spaceId).events, '-', '+'))) as Envelope[];

/** Every journal line of a space, newest first, as list_events reads them (the stored lines are compact). */
export const journalLines = async (rt: Runtime, spaceId: string): Promise<StoredLine[]> =>
  (await readJournal(rt, spaceId, { ref: '*', from: null, to: null, before: null, limit: 10_000, visible: () => true }))
    .lines;

/**
 * Every entry of a space's journal index as `<prefix><line id body>`, from the lists' buckets
 * (lua/includes/journalBucketOf.lua): a sealed bucket's field ends with `#<k>`, its value starts with
 * its 20-character bound; an open bucket's value with `<n>|`, then the last bound when n > 0.
 */
export async function journalIndexEntries(rt: Runtime, spaceId: string): Promise<string[]> {
  const entries: string[] = [];
  for (const [field, value] of Object.entries(await rt.redis.hgetall(spaceKeys(spaceId).journalIndex))) {
    const sealed = /^(.*)#\d+$/.exec(field);
    const bar = value.indexOf('|');
    const bodies = sealed ? value.slice(20) : value.slice(bar + 1 + (Number(value.slice(0, bar)) > 0 ? 20 : 0));
    for (let at = 0; at < bodies.length; at += 20)
      entries.push(`${sealed ? sealed[1] : field}${bodies.slice(at, at + 20)}`);
  }
  return entries.sort();
}
