// What a received message's raw source costs the file blob store, beside its floor: 20 concurrent
// writers (the keep-alive load's sessions) put 1.2 KB sources, durable when the put answers. The
// store's sources (`putSource`: segments, src/blobs/source-log.ts) and its other blobs (`put`: a file a
// blob, written with O_DSYNC, renamed, its folder fsync'd) against an append-only log with group commit
// (every write waiting at a moment goes out as one writev and one fdatasync). Alternated rounds in one
// process; prints puts/s and the process's CPU a put (user and system, process.cpuUsage), whose sum is
// what a pinned SMTP process pays.
// Needs a build (npm run build). @bench-smoke
//   node bench/blob-puts.mjs [PUTS]      # default 8,000 a round, 3 rounds each
//   node bench/blob-puts.mjs --smoke     # 200 puts, one round: the script works, no figure judged
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileBlobStore } from '../dist/src/blobs/fs.js';

const smoke = process.argv[2] === '--smoke';
const puts = smoke ? 200 : Number(process.argv[2] ?? 8000);
const rounds = smoke ? 1 : 3;
const writers = 20;
const dir = mkdtempSync(join(process.env.BENCH_DIR ?? tmpdir(), 'mailbox-blob-puts-'));
const source = (i) =>
  Buffer.from(`Message-ID: <${i}.${randomBytes(8).toString('hex')}@bench.test>\r\n${'x'.repeat(1150)}`);

/** The floor: one append-only file, group committed. */
async function appendLog(path) {
  const handle = await open(path, 'ax', 0o600);
  let waiting = [];
  let flushing = null;
  const flush = async () => {
    while (waiting.length) {
      const batch = waiting;
      waiting = [];
      await handle.writev(batch.map((entry) => entry.bytes));
      await handle.datasync();
      for (const entry of batch) entry.resolve();
    }
    flushing = null;
  };
  return {
    put: (bytes) =>
      new Promise((resolve) => {
        waiting.push({ bytes, resolve });
        flushing ??= flush();
      }),
    close: () => handle.close(),
  };
}

/** The file blob store: a raw source as the SMTP front end writes it (`putSource`), or a file a blob (`put`). */
function fileStore(root, how) {
  const store = fileBlobStore(root);
  return { put: (bytes) => store[how]('spc_bench', bytes), close: () => store.removeSpace('spc_bench') };
}

const made = {
  sources: (root) => fileStore(root, 'putSource'),
  files: (root) => fileStore(root, 'put'),
  log: (root) => appendLog(join(root, 'log')),
};
const names = Object.keys(made);
const label = {
  sources: 'file store, raw sources (segments)',
  files: 'file store, a file a blob',
  log: 'append log, group commit',
};

async function measure(name, round) {
  const root = join(dir, `${name}-${round}`);
  mkdirSync(root);
  const writer = await made[name](root);
  let next = 0;
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (next < puts) await writer.put(source(next++));
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const used = process.cpuUsage(cpu);
  await writer.close();
  rmSync(root, { recursive: true, force: true });
  return { name, rate: puts / seconds, user: used.user / puts, system: used.system / puts };
}

const results = Object.fromEntries(names.map((name) => [name, []]));
try {
  for (let round = 1; round <= rounds; round++)
    for (const name of round % 2 ? names : [...names].reverse()) {
      const result = await measure(name, round);
      results[name].push(result);
      console.log(
        `  ${round} ${name.padEnd(7)} ${Math.round(result.rate)} puts/s, CPU a put: user ${Math.round(result.user)} µs, system ${Math.round(result.system)} µs`,
      );
    }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
const summary = Object.fromEntries(
  Object.entries(results).map(([name, list]) => [
    name,
    { rate: median(list.map((r) => r.rate)), cpu: median(list.map((r) => r.user + r.system)) },
  ]),
);
console.log(`\n| writer | puts/s | CPU a put (µs) |\n|---|---:|---:|`);
for (const [name, { rate, cpu }] of Object.entries(summary))
  console.log(`| ${label[name]} | ${Math.round(rate)} | ${Math.round(cpu)} |`);
for (const name of ['sources', 'files'])
  console.log(
    `\n${name} / log: ${(summary[name].rate / summary.log.rate).toFixed(2)} of the puts/s, ${(summary[name].cpu / summary.log.cpu).toFixed(1)}x the CPU a put`,
  );
