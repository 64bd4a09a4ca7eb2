/**
 * The migration steps walk every primary (docs/operations.md, "Upgrading"): run on the file's store, a
 * 3-primary Cluster under `npm run test:cluster`, each finds the older records of spaces on any primary.
 * The steps run directly, the format untouched: files sharing the Cluster go on meanwhile (today's
 * records are left as they are).
 */
import t from 'tap';
import { blobSetMember } from '../../src/blobs/store.js';
import { globalKeys, shardOf, spaceKeys } from '../../src/redis/keys.js';
import { HISTORY_SHARDS } from '../../actors/history-index.js';
import { MIGRATIONS } from '../../src/storage/migrations/index.js';
import { startService } from '../helpers/service.js';

const svc = await startService();
const step = (name: string) => MIGRATIONS.find((s) => s.name === name)!;

t.test('the blob-members step finds the hex members of spaces on every primary', async (t) => {
  const spaces = await Promise.all(Array.from({ length: 12 }, () => svc.space()));
  const hex = (i: number) => i.toString(16).padStart(64, '0');
  for (const [i, space] of spaces.entries()) await svc.rt.redis.sadd(spaceKeys(space.spaceId).blobs, hex(i));
  t.equal(await step('blob-members').run(svc.rt), spaces.length);
  for (const [i, space] of spaces.entries()) {
    t.same(await svc.rt.redis.smembers(spaceKeys(space.spaceId).blobs), [blobSetMember(hex(i))]);
  }
});

t.test('on today’s records every step rewrites nothing', async (t) => {
  const { spaceId } = await svc.space();
  const historyKey = globalKeys.historySpaces(shardOf(spaceId, HISTORY_SHARDS));
  const indexed = await svc.rt.redis.zscore(historyKey, spaceId);
  for (const { name, run } of MIGRATIONS) {
    // Other files on the Cluster write spaces' fields by hand (no createSpace): this step indexes those.
    if (name === 'history-index') await run(svc.rt);
    else t.equal(await run(svc.rt), 0, name);
  }
  t.not(indexed, null, 'history-index: a space createSpace made was in the index already');
  t.equal(await svc.rt.redis.zscore(historyKey, spaceId), indexed, 'and the step leaves it as it was');
});
