/**
 * The delivery sweep finds the spaces with mail queued or in flight through the due index
 * (actors/due-index.ts), which every queueing keeps; a space queued before the index existed enters it
 * here, due at its earliest departure or lease end, so that no worker looks for queues by key pattern.
 */
import { DUE_SHARDS, markDue, nextDue } from '../../../actors/due-index.js';
import { globalKeys, shardOf } from '../../redis/keys.js';
import type { Runtime } from '../../runtime.js';
import { eachSpace, type Migration } from './steps.js';

async function indexDueSpaces(rt: Runtime): Promise<number> {
  let marked = 0;
  await eachSpace(rt, async (spaceId) => {
    const indexed = await rt.redis.zscore(globalKeys.dueSpaces(shardOf(spaceId, DUE_SHARDS)), spaceId);
    const next = indexed === null ? await nextDue(rt, spaceId) : null;
    if (next === null) return;
    await markDue(rt, spaceId, next);
    marked++;
  });
  return marked;
}

export const dueIndex: Migration = { name: 'due-index', run: indexDueSpaces };
