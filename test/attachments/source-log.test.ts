/**
 * Raw sources in append-only segments (src/blobs/source-log.ts): sources handed in together share one
 * write and one sync, each is read back by its reference, a segment closes when full, idle or one too
 * many, a new process writes its own, and the file store's sweep never sees them.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import t, { type Test } from 'tap';
import { fileBlobStore, sharedSync } from '../../src/blobs/fs.js';
import { SEGMENT_LIMITS, SEGMENT_NAME, sourceLog, type SegmentLimits } from '../../src/blobs/source-log.js';

async function scratch(t: Test): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'sources-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  return root;
}

const noSync = sharedSync(async () => undefined);
const logIn = (root: string, limits: Partial<SegmentLimits> = {}) =>
  sourceLog(root, noSync, { ...SEGMENT_LIMITS, ...limits });
const segmentOf = (ref: string): string => ref.split(':')[0]!;
const source = (n: number): Buffer => Buffer.from(`Message-ID: <${n}@exemple.test>\r\n\r\nBonjour ${n}\r\n`);

/** Write system calls of this process so far (Linux's /proc/self/io). */
async function writeCalls(): Promise<number> {
  return Number(/syscw: (\d+)/.exec(await readFile('/proc/self/io', 'utf8'))![1]);
}

t.test('sources handed in together: one write for the batch, each read back by its reference', async (t) => {
  const root = await scratch(t);
  const log = logIn(root);
  await log.append('spc_a', source(0)); // the segment created
  const before = await writeCalls();
  const refs = await Promise.all(Array.from({ length: 50 }, (_, i) => log.append('spc_a', source(i + 1))));
  const calls = (await writeCalls()) - before;
  // The process writes a few times of its own meanwhile (the runner's pipes): far from the 50 of a write a source.
  t.ok(calls < 25, `50 sources in ${calls} write calls`);
  t.equal(new Set(refs.map(segmentOf)).size, 1, 'one segment');
  for (const [i, ref] of refs.entries()) t.same(await log.read('spc_a', ref), source(i + 1));
  const offsets = refs.map((ref) => Number(ref.split(':')[1]));
  t.same(
    offsets,
    [...offsets].sort((a, b) => a - b),
    'appended in the order handed in',
  );
  t.same(await readdir(join(root, 'spc_a')), [segmentOf(refs[0]!)], 'the segment in the space folder');
});

t.test('a full segment makes way for the next; a source larger than the limit gets one alone', async (t) => {
  const log = logIn(await scratch(t), { maxBytes: 100 });
  const [a, b] = await Promise.all([
    log.append('spc_a', Buffer.alloc(60, 'a')),
    log.append('spc_a', Buffer.alloc(60, 'b')),
  ]);
  t.not(segmentOf(a), segmentOf(b));
  const big = await log.append('spc_a', Buffer.alloc(150, 'c'));
  t.not(segmentOf(big), segmentOf(b));
  t.same(await log.read('spc_a', big), Buffer.alloc(150, 'c'));
  t.same(await log.read('spc_a', a), Buffer.alloc(60, 'a'));
});

t.test('an idle segment closes; one segment too many closes the least recently written', async (t) => {
  const idle = logIn(await scratch(t), { idleMs: 20 });
  const first = await idle.append('spc_a', source(1));
  await sleep(80);
  const second = await idle.append('spc_a', source(2));
  t.not(segmentOf(second), segmentOf(first), 'written to a new segment once the first closed');
  t.same(await idle.read('spc_a', first), source(1), 'the closed one still read');

  const few = logIn(await scratch(t), { openMax: 2 });
  const a = await few.append('spc_a', source(1));
  await few.append('spc_b', source(2));
  const c = await few.append('spc_c', source(3));
  t.not(segmentOf(await few.append('spc_a', source(4))), segmentOf(a), "spc_a's segment closed to open spc_c's");
  t.equal(segmentOf(await few.append('spc_c', source(5))), segmentOf(c), "spc_c's still open");
  t.same(await few.read('spc_a', a), source(1));
});

t.test('another process reads the sources of the first and writes its own segments', async (t) => {
  const root = await scratch(t);
  const first = await logIn(root).append('spc_a', source(1));
  const other = logIn(root);
  t.same(await other.read('spc_a', first), source(1));
  const second = await other.append('spc_a', source(2));
  t.not(segmentOf(second), segmentOf(first));
  t.same(await other.read('spc_a', second), source(2));
});

t.test('a reference to nothing reads null; one of another shape is refused', async (t) => {
  const root = await scratch(t);
  const log = logIn(root);
  const ref = await log.append('spc_a', source(1));
  const [name, offset, length] = ref.split(':');
  t.equal(await log.read('spc_a', `${name}:${offset}:${Number(length) + 1}`), null, 'past the end: a torn tail');
  t.equal(await log.read('spc_a', 'log_0_9:0:10'), null, 'no such segment');
  t.equal(await log.read('spc_b', ref), null, "another space's folder");
  await t.rejects(log.read('spc_a', '../spc_b/log_0_1:0:1'), /not a source reference/);
  await t.rejects(log.append('../spc_a', source(1)), /not a space id/);
  t.ok(log.names(ref));
  t.notOk(log.names('a'.repeat(64)), "a blob's SHA-256 is no segment reference");
});

t.test('a segment that cannot be created fails its sources; the next append tries again', async (t) => {
  const root = await scratch(t);
  await writeFile(join(root, 'spc_a'), 'not a folder');
  const log = logIn(root);
  await t.rejects(Promise.all([log.append('spc_a', source(1)), log.append('spc_a', source(2))]), { code: 'ENOTDIR' });
  await rm(join(root, 'spc_a'));
  t.same(await log.read('spc_a', await log.append('spc_a', source(3))), source(3));
});

t.test('the file store: sources in segments, no blob listed, erasure removes them', async (t) => {
  const root = await scratch(t);
  const store = fileBlobStore(root);
  const stored = await store.putSource('spc_a', source(1));
  t.equal(stored.blob, null);
  t.match(segmentOf(stored.ref), SEGMENT_NAME);
  const file = await store.put('spc_a', Buffer.from('pièce'));
  t.same(
    (await store.list('spc_a')).map((blob) => blob.key),
    [file.key],
    'the sweep lists the blob, not the segment',
  );
  t.same(await store.getSource('spc_a', stored.ref), source(1));
  await store.removeSpace('spc_a');
  t.equal(await store.getSource('spc_a', stored.ref), null);
  const again = await store.putSource('spc_a', source(2));
  t.same(await store.getSource('spc_a', again.ref), source(2), 'a new segment after the erasure');
});
