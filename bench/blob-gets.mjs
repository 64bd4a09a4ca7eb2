// What a read of a blob costs the file blob store beside Node's own readFile (fs/promises, its floor
// of convenience): a history document (1.3 KB of gzip, what a get_thread or a search's snippet of a
// thread in history reads) and a search segment (150 KB). One reader, then 8 at once; alternated rounds
// in one process; prints the p50 and p99 of a read and the process's CPU a read (user and system), of
// each reader's round of the median p50.
// Needs a build (npm run build). @bench-smoke
//   node bench/blob-gets.mjs [READS]    # default 5,000 reads a round, 3 rounds each
//   node bench/blob-gets.mjs --smoke    # 200 reads, one round: the script works, no figure judged
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileBlobStore } from '../dist/src/blobs/fs.js';

const smoke = process.argv[2] === '--smoke';
const reads = smoke ? 200 : Number(process.argv[2] ?? 5000);
const rounds = smoke ? 1 : 3;
const dir = mkdtempSync(join(process.env.BENCH_DIR ?? tmpdir(), 'mailbox-blob-gets-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
const store = fileBlobStore(dir);
const blobs = [];
for (const [name, size] of [
  ['document, 1.3 KB', 1300],
  ['segment, 150 KB', 150_000],
]) {
  // 64 of each, read in turn: the page cache holds them, as it does a busy store's recent blobs.
  const keys = [];
  for (let i = 0; i < 64; i++) keys.push((await store.put('spc_bench', randomBytes(size))).key);
  blobs.push({ name, size, keys });
}

const readers = {
  'store.get': (key) => store.get(key),
  'fs/promises readFile': (key) => readFile(join(dir, key)),
};

async function round(read, keys, concurrency) {
  const times = [];
  let next = 0;
  const cpu = process.cpuUsage();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < reads) {
        const key = keys[next++ % keys.length];
        const started = performance.now();
        const bytes = await read(key);
        times.push(performance.now() - started);
        if (!bytes?.length) throw new Error(`nothing read for ${key}`);
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  times.sort((a, b) => a - b);
  return {
    p50: times[Math.floor(times.length / 2)],
    p99: times[Math.floor(times.length * 0.99)],
    cpu: (used.user + used.system) / reads,
  };
}

console.log(`| blob | readers | reader | p50 ms | p99 ms | CPU a read µs |\n|---|---:|---|---:|---:|---:|`);
for (const { name, keys } of blobs)
  for (const concurrency of [1, 8]) {
    const results = new Map(Object.keys(readers).map((reader) => [reader, []]));
    for (let r = 0; r < rounds; r++)
      for (const [reader, read] of Object.entries(readers))
        results.get(reader).push(await round(read, keys, concurrency));
    // Each reader's round of the median p50.
    const median = (all) => all.sort((a, b) => a.p50 - b.p50)[Math.floor(all.length / 2)];
    for (const [reader, { p50, p99, cpu }] of [...results].map(([reader, all]) => [reader, median(all)]))
      console.log(
        `| ${name} | ${concurrency} | ${reader} | ${p50.toFixed(3)} | ${p99.toFixed(3)} | ${cpu.toFixed(0)} |`,
      );
  }
