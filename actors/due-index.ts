/**
 * The due index: which spaces have departures queued or in flight, so that the delivery sweep visits
 * them without scanning the keyspace (docs/architecture.md, "Delivery"). Sharded by a hash of the space
 * id (`{due:<n>}` keys, never a space's tag), each space scored by when its earliest departure is due:
 *  - a departure that became its inbox's next (the one that gets a wake-up job) marks its space at its
 *    slot (lua/due/markDue: the earliest registration wins and the space's mark counts up);
 *  - the sweep visits the spaces due by now, then settles each: due again at its earliest queued
 *    departure or lease end, or out of the index when nothing waits; a space marked again during the
 *    visit is left as it is (lua/due/settleDue), so a departure queued meanwhile is never dropped.
 * A space with nothing queued costs the sweep nothing, and one with departures later only when they fall due.
 */
import { globalKeys, shardOf, spaceKeys } from '../src/redis/keys.js';
import { whileRedisAway, within } from '../src/redis/bounded.js';
import { wakeInbox } from '../src/redis/queues.js';
import type { Runtime } from '../src/runtime.js';
import * as dueLua from './bindings/due.generated.js';

export const DUE_SHARDS = 16;

const shardKeys = (shard: number) => ({ due: globalKeys.dueSpaces(shard), marks: globalKeys.dueMarks(shard) });

/** Registers the space of a departure due at `at` (after the script that queued it). */
export async function markDue(rt: Runtime, spaceId: string, at: number): Promise<void> {
  await dueLua.markDue(rt.scripts, shardKeys(shardOf(spaceId, DUE_SHARDS)), { spaceId, at });
}

/**
 * A departure that became its inbox's next, after the script that queued it: its space enters the due
 * index, and a wake-up job is set for the inbox at its slot. Both live under other tags than the
 * space's: waited for at most SHARED_READ_MS, then left to finish (tried again while Redis is away,
 * about half a minute), so a node failing over does not fail the sends of spaces it does not hold; the
 * message is already queued in the space's own slot. Lost for good (the process dies meanwhile), the
 * departure waits for its space's next registration.
 */
export async function wakeDeparture(rt: Runtime, spaceId: string, inboxId: string, slot: number): Promise<void> {
  const writes = Promise.all([
    whileRedisAway(() => markDue(rt, spaceId, slot)),
    whileRedisAway(() => wakeInbox(rt, spaceId, inboxId, slot)),
  ]);
  const waited = await within(rt.config.sharedReadMs, writes);
  if ('failed' in waited) throw waited.failed;
  if ('late' in waited) {
    rt.log.debug('wake-up late: left to finish', { space_id: spaceId, inbox_id: inboxId });
    writes.catch((error: Error) =>
      rt.log.error('wake-up not written', { space_id: spaceId, inbox_id: inboxId, error: error.message }),
    );
  }
}

/** A space due for a visit, with its mark as read before the visit. */
export interface DueSpace {
  spaceId: string;
  mark: string;
}

/** The shard's spaces due by `now`, with their marks. */
export async function dueSpaces(rt: Runtime, shard: number, now: number): Promise<DueSpace[]> {
  const { due, marks } = shardKeys(shard);
  const ids = await rt.redis.zrangebyscore(due, '-inf', now);
  if (!ids.length) return [];
  const read = await rt.redis.hmget(marks, ...ids);
  return ids.map((spaceId, i) => ({ spaceId, mark: read[i] ?? '' }));
}

/** When the space next needs a worker: its earliest queued departure or delivery lease end, or null. */
export async function nextDue(rt: Runtime, spaceId: string): Promise<number | null> {
  const keys = spaceKeys(spaceId);
  const [queued, leased] = await Promise.all([
    rt.redis.zrange(keys.queue, '0', '0', 'WITHSCORES'),
    rt.redis.zrange(keys.sending, '0', '0', 'WITHSCORES'),
  ]);
  const times = [queued[1], leased[1]].filter((score): score is string => score !== undefined).map(Number);
  return times.length ? Math.min(...times) : null;
}

/** Ends a visit: the space due again at `next`, or out when null; kept as is when it was marked meanwhile. */
export async function settleDue(rt: Runtime, { spaceId, mark }: DueSpace, next: number | null): Promise<boolean> {
  const reply = await dueLua.settleDue(rt.scripts, shardKeys(shardOf(spaceId, DUE_SHARDS)), {
    spaceId,
    mark,
    next: next ?? '',
  });
  return reply.settled;
}
