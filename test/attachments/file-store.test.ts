/**
 * The file blob store's cheaper put and get (src/blobs/fs.ts): concurrent puts of one folder share its
 * fsync, a caller that comes while a sync runs waits for the next one, a folder erased behind the
 * process's back (another process erased the space) is created again, and a get reads every size
 * whole (below, at and past its first read).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { fileBlobStore, sharedSync } from '../../src/blobs/fs.js';

t.test('puts waiting for one folder share its sync; one that comes during a sync gets the next', async (t) => {
  const started: string[] = [];
  const finish: (() => void)[] = [];
  const sync = sharedSync((path) => {
    started.push(path);
    return new Promise<void>((resolve) => finish.push(resolve));
  });
  const first = [sync('a'), sync('a'), sync('b')];
  await Promise.resolve();
  await Promise.resolve();
  t.same(started, ['a', 'b'], 'one sync per folder for the callers of the same moment');
  const later = [sync('a'), sync('a')];
  await Promise.resolve();
  t.same(started, ['a', 'b'], 'a caller during a sync does not start another at once');
  finish[0]!();
  await first[0];
  await first[1];
  await new Promise((resolve) => setImmediate(resolve));
  t.same(started, ['a', 'b', 'a'], 'the next sync starts when the running one ends, once for all its callers');
  finish[1]!();
  finish[2]!();
  await Promise.all([...first, ...later]);
});

t.test('a failed sync fails its callers, and the next one still runs', async (t) => {
  let calls = 0;
  const sync = sharedSync(async () => {
    if (++calls === 1) throw new Error('EIO');
  });
  await t.rejects(sync('a'), /EIO/);
  await sync('a');
  t.equal(calls, 2);
});

t.test('a folder erased behind the store is created again', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'blobs-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  const store = fileBlobStore(root);
  const one = await store.put('spc_a', Buffer.from('un'));
  await rm(join(root, 'spc_a'), { recursive: true });
  const two = await store.put('spc_a', Buffer.from('deux'));
  t.equal((await store.get(two.key))!.toString(), 'deux');
  t.equal(await store.get(one.key), null);
  await store.removeSpace('spc_a');
  const three = await store.put('spc_a', Buffer.from('trois'));
  t.equal((await readFile(join(root, three.key))).toString(), 'trois');
});

t.test('a get reads a blob whole, whatever its size', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'blobs-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  const store = fileBlobStore(root);
  for (const size of [0, 1, 64 * 1024 - 1, 64 * 1024, 64 * 1024 + 1, 1_000_000]) {
    const bytes = randomBytes(size);
    const { key } = await store.put('spc_a', bytes);
    t.ok((await store.get(key))!.equals(bytes), `${size} bytes`);
  }
  t.equal(await store.get('spc_a/0000'), null, 'a blob that is not there');
});
