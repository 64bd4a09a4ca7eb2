/**
 * The migration steps walk every primary (docs/operations.md, "Upgrading"): run on the file's store, a
 * 3-primary Cluster under `npm run test:cluster`, each finds the older records of spaces on any primary.
 * The steps run directly, the format untouched: files sharing the Cluster go on meanwhile (today's
 * records are left as they are).
 */
import t from 'tap';
import { blobSetMember } from '../../src/blobs/store.js';
import { spaceKeys } from '../../src/redis/keys.js';
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
  await svc.space();
  for (const { name, run } of MIGRATIONS) t.equal(await run(svc.rt), 0, name);
});
