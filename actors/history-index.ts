/**
 * The history index: every space, scored by when its threads are next looked at for history
 * (actors/history.ts), in HISTORY_SHARDS sorted sets under tags of their own (`{hist:<n>}`), so that
 * the worker role finds the spaces with threads turning idle without scanning the keyspace, and a
 * space with nothing to move costs a look every ARCHIVE_AFTER_DAYS. A space enters it when created
 * (and, for those created before it existed, through `mailbox admin migrate`); a visit claims it for
 * a lease (lua/history/claimSpaces-1.lua), so workers running at once never visit one space together.
 */
import { globalKeys, shardOf, spaceKeys } from '../src/redis/keys.js';
import type { Runtime } from '../src/runtime.js';
import * as historyLua from './bindings/history.generated.js';
import { visitSpace } from './history.js';

export const HISTORY_SHARDS = 16;
/** How long a visit holds its space: far beyond a visit of a minute's budget. */
const VISIT_LEASE_MS = 10 * 60_000;

const shardKey = (spaceId: string): string => globalKeys.historySpaces(shardOf(spaceId, HISTORY_SHARDS));

/** Enters a space in the index, due once its first threads may have turned idle; one already there keeps its time. */
export async function indexSpace(rt: Runtime, spaceId: string): Promise<void> {
  await rt.redis.zadd(shardKey(spaceId), 'NX', rt.clock.now() + rt.config.history.afterMs, spaceId);
}

/** Takes an erased space out of the index. */
export async function unindexSpace(rt: Runtime, spaceId: string): Promise<void> {
  await rt.redis.zrem(shardKey(spaceId), spaceId);
}

/**
 * Visits the spaces due by now, shard by shard, moving at most `budget` threads in all; answers how
 * many it moved. Erasure takes a space out of the index (unindexSpace).
 */
export async function moveDueThreads(rt: Runtime, budget: number): Promise<number> {
  let moved = 0;
  for (let shard = 0; shard < HISTORY_SHARDS && moved < budget; shard++) {
    const key = globalKeys.historySpaces(shard);
    const { spaces } = await historyLua.claimSpaces(
      rt.scripts,
      { spaces: key },
      { now: rt.clock.now(), lease: VISIT_LEASE_MS, max: 100 },
    );
    for (const spaceId of spaces) {
      if (moved >= budget) {
        await rt.redis.zadd(key, rt.clock.now(), spaceId);
        continue;
      }
      // A space not written yet (its creation indexes it first) or whose creation died: looked at a period on.
      if (!(await rt.redis.exists(spaceKeys(spaceId).space))) {
        await rt.redis.zadd(key, rt.clock.now() + rt.config.history.afterMs, spaceId);
        continue;
      }
      try {
        const visit = await visitSpace(rt, spaceId, budget - moved);
        moved += visit.moved;
        await rt.redis.zadd(key, visit.next, spaceId);
      } catch (error) {
        // Left claimed: the space is visited again once the lease ends.
        rt.log.error('history visit failed', { space_id: spaceId, error: (error as Error).message });
      }
    }
  }
  return moved;
}
