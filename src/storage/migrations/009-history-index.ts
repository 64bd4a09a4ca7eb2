/**
 * The history mover finds the spaces whose threads may have turned idle through the history index
 * (actors/history-index.ts), which a space enters when created; a space created before the index
 * existed enters it here, due at once: its first visit looks at all of its idle threads.
 */
import { HISTORY_SHARDS } from '../../../actors/history-index.js';
import { globalKeys, shardOf } from '../../redis/keys.js';
import type { Runtime } from '../../runtime.js';
import { eachSpace, type Migration } from './steps.js';

async function indexSpacesForHistory(rt: Runtime): Promise<number> {
  let indexed = 0;
  await eachSpace(rt, async (spaceId) => {
    const key = globalKeys.historySpaces(shardOf(spaceId, HISTORY_SHARDS));
    indexed += await rt.redis.zadd(key, 'NX', rt.clock.now(), spaceId);
  });
  return indexed;
}

export const historyIndex: Migration = { name: 'history-index', run: indexSpacesForHistory };
