// Search benchmark (built sources under dist/; `npm run bench:search` builds first). Loopback only;
// everything it starts, it stops. A space of MESSAGES received messages (three inboxes, 3,000
// correspondents, threads of a few messages, bodies of 40 to 150 words drawn from a 20,000-word
// vocabulary with Zipf frequencies, one in three carrying a 5-digit number) is stored through the
// inbound store script (lua/message/receiveInbound-16.lua, which indexes each message), then
// search_threads answers QUERIES queries of six kinds, called as the front ends call it (the tool's
// handler, no HTTP), one at a time. Then every thread moves to search segments (actors/search-segments.ts,
// files under a temporary folder) and the same queries are asked again. Prints a markdown table: p50/p99
// per kind and overall, live and from segments, and the index's Redis memory per message before and
// after the move (MEMORY USAGE of every index key, SAMPLES 0).
// `--smoke` (@bench-smoke): 2,000 messages and 60 queries, a few seconds, no timing judged (CI).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../dist/src/config.js';
import { createRuntime } from '../dist/src/runtime.js';
import { spaceKeys, spaceTag } from '../dist/src/redis/keys.js';
import { authenticate, createSpace } from '../dist/actors/space.js';
import { createInbox } from '../dist/actors/inbox.js';
import { receiveInbound } from '../dist/actors/inbound.js';
import { moveToSegments } from '../dist/actors/search-segments.js';
import { fileBlobStore } from '../dist/src/blobs/fs.js';
import { toolByName } from '../dist/src/tools/index.js';
import { freePort, seededWords, startRedis } from './lib.mjs';

const smoke = process.argv.includes('--smoke');
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? (smoke ? 2_000 : 100_000));
const QUERIES = Number(process.env.BENCH_QUERIES ?? (smoke ? 60 : 3_000));
const CONCURRENCY = 16;
const VOCABULARY = 20_000;
const CORRESPONDENTS = 3_000;
/** Threads moved to segments per call, as an archive pass would hand them over. */
const MOVE_BATCH = 2_000;

const redisPort = await freePort();
await startRedis(redisPort);

const blobDir = mkdtempSync(join(tmpdir(), 'bench-search-'));
const base = createRuntime(
  loadConfig({
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    MAILBOX_MASTER_KEY: randomBytes(32).toString('base64'),
    PLANS: JSON.stringify({ bench: { inbox_cap: 5, daily_max: 20 } }),
    LOG_LEVEL: 'warn',
  }),
);
const rt = { ...base, ports: { ...base.ports, blobs: fileBlobStore(blobDir) } };

// The same space on every run.
const { random, pick, between, vocabulary, zipf } = seededWords(0x5eed, VOCABULARY);
const GLUE = 'le la les de des du et en un une pour avec sur dans nous vous est que qui pas'.split(' ');
const FIRST =
  'Marie Jean Pierre Sophie Luc Claire Paul Julie Marc Anne Louis Emma Hugo Léa Nina Théo Chloé Éric Inès Yves'.split(
    ' ',
  );
const LAST = Array.from({ length: 150 }, () => pick(vocabulary).replace(/^./, (c) => c.toUpperCase()));
const correspondents = Array.from({ length: CORRESPONDENTS }, (_, i) => {
  const [first, last] = [pick(FIRST), pick(LAST)];
  return {
    name: `${first} ${last}`,
    address: `${first.toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '')}.${last.toLowerCase()}${i}@${pick(vocabulary)}.test`,
    subject: null,
  };
});
function body() {
  const out = [];
  for (let i = between(40, 150); i > 0; i--) out.push(random() < 0.3 ? pick(GLUE) : zipf());
  if (random() < 0.33) out.splice(between(0, out.length), 0, `n° ${between(10000, 99999)}`);
  return `Bonjour,\n\n${out.join(' ')}.\n\nCordialement`;
}

const space = await createSpace(rt, { human: 'humain@bench.test', plan: 'bench', verified: true });
const access = await authenticate(rt, space.api_key);
const inboxes = [];
for (let i = 0; i < 3; i++)
  inboxes.push(
    await createInbox(rt, access, {
      username: `banc${i}`,
      domain: rt.config.commonDomain,
      shared: true,
      display_name: `Banc ${i}`,
    }),
  );

const redisCpu = async () => {
  const info = await rt.redis.info('cpu');
  return Number(/used_cpu_user:([\d.]+)/.exec(info)[1]) + Number(/used_cpu_sys:([\d.]+)/.exec(info)[1]);
};
const cpuBefore = await redisCpu();
const seeded = performance.now();
let next = 0;
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (next < MESSAGES) {
      next++;
      const who = correspondents[Math.floor(random() ** 2 * CORRESPONDENTS)];
      // Most mail continues the correspondent's conversation (threaded by subject); some opens a new one.
      if (!who.subject || random() < 0.3) who.subject = Array.from({ length: between(2, 5) }, zipf).join(' ');
      const subject = random() < 0.5 ? who.subject : `Re: ${who.subject}`;
      const inbox = inboxes[who.address.length % inboxes.length];
      await receiveInbound(
        rt,
        space.space_id,
        { id: inbox.id, address: inbox.address },
        {
          from: who.address,
          from_name: who.name,
          reply_to: '',
          subject,
          text: body(),
          html: '',
          message_id_header: '',
          in_reply_to: '',
          references: [],
          automatic: false,
          auth_results: {},
          attachments: [],
        },
      );
    }
  }),
);
const seedSeconds = (performance.now() - seeded) / 1000;
// Redis's CPU time per stored message (INFO cpu: CPU, not wall time, so a loaded machine inflates it little).
const cpuPerMessage = (((await redisCpu()) - cpuBefore) / MESSAGES) * 1e6;
// Redis's own time per script call while seeding: nearly all of them are the store script.
const scriptStats = /cmdstat_evalsha:calls=(\d+),usec=\d+,usec_per_call=([\d.]+)/.exec(
  await rt.redis.info('commandstats'),
);

// The index's memory: every key under the space's `s:` prefix.
const keys = spaceKeys(space.space_id);
const kindOf = (key) =>
  key === keys.searchDocs
    ? 'docs'
    : key === keys.searchWords
      ? 'words'
      : key === keys.searchOnce
        ? 'words of one document'
        : key === keys.searchPending
          ? 'pending entries'
          : key === keys.searchSegments
            ? 'segment lists'
            : key.startsWith(`${spaceTag(space.space_id)}:s:w:`)
              ? 'word postings'
              : key.startsWith(`${spaceTag(space.space_id)}:s:i:`)
                ? 'inbox postings'
                : 'thread postings';
async function indexMemory() {
  const kinds = {
    docs: 0,
    words: 0,
    'word postings': 0,
    'words of one document': 0,
    'inbox postings': 0,
    'thread postings': 0,
    'pending entries': 0,
    'segment lists': 0,
  };
  let bytes = 0;
  let count = 0;
  let cursor = '0';
  do {
    const [after, found] = await rt.redis.scan(cursor, 'MATCH', `${spaceTag(space.space_id)}:s:*`, 'COUNT', 2000);
    cursor = after;
    const pipeline = rt.redis.pipeline();
    for (const key of found) pipeline.memory('USAGE', key, 'SAMPLES', '0');
    const sizes = (await pipeline.exec()).map(([, size]) => Number(size));
    found.forEach((key, i) => (kinds[kindOf(key)] += sizes[i]));
    bytes += sizes.reduce((a, b) => a + b, 0);
    count += found.length;
  } while (cursor !== '0');
  return { kinds, bytes, count };
}
const live = await indexMemory();
const indexedWords = await rt.redis.zcard(keys.searchWords);
const threads = await rt.redis.zcard(keys.threads);

// Queries of six kinds, drawn from the same vocabulary and people.
const restricted = { ...access, key: { ...access.key, inbox_ids: [inboxes[0].id] } };
const tool = toolByName.get('search_threads');
const KINDS = {
  'a common word (rank 20-200)': () => ({ query: vocabulary[between(20, 200)] }),
  'a rarer word (rank 2,000-20,000)': () => ({ query: vocabulary[between(2_000, VOCABULARY - 1)] }),
  'two words': () => ({ query: `${vocabulary[between(20, 500)]} ${vocabulary[between(200, 3_000)]}` }),
  'a prefix of 3 letters': () => ({ query: vocabulary[between(20, 3_000)].slice(0, 3) }),
  "a correspondent's name": () => ({ query: pick(correspondents).name }),
  'a common word, key restricted to one inbox, page 2': () => ({ query: vocabulary[between(20, 200)], page2: true }),
};
const drawn = Array.from({ length: QUERIES }, (_, i) => {
  const kind = Object.keys(KINDS)[i % Object.keys(KINDS).length];
  return { kind, ...KINDS[kind]() };
});
async function measure() {
  const timings = Object.fromEntries(Object.keys(KINDS).map((kind) => [kind, []]));
  let found = 0;
  for (const { kind, query, page2 } of drawn) {
    const started = performance.now();
    let answer = await tool.handler({ rt, access: page2 ? restricted : access }, { query });
    if (page2 && answer.next_cursor)
      answer = await tool.handler({ rt, access: restricted }, { query, cursor: answer.next_cursor });
    timings[kind].push(performance.now() - started);
    found += answer.items.length;
  }
  return { timings, found };
}
const liveRun = await measure();

// Every thread to segments, oldest first, as archive passes would; the first query then opens them.
const threadIds = await rt.redis.zrange(keys.threads, 0, -1);
const moveStarted = performance.now();
for (let at = 0; at < threadIds.length; at += MOVE_BATCH)
  await moveToSegments(rt, space.space_id, threadIds.slice(at, at + MOVE_BATCH));
const moveSeconds = (performance.now() - moveStarted) / 1000;
const segmentsMemory = await indexMemory();
const segmentFiles = (await rt.ports.blobs.list(space.space_id)).length;
// The files listed (those a merge replaced wait for the sweep).
const listed = new Set(
  (await rt.redis.smembers(keys.blobs)).map((member) => Buffer.from(member, 'base64url').toString('hex')),
);
const segmentBytes = readdirSync(join(blobDir, space.space_id))
  .filter((name) => listed.has(name))
  .reduce((sum, name) => sum + statSync(join(blobDir, space.space_id, name)).size, 0);
const warmStarted = performance.now();
await tool.handler({ rt, access }, { query: drawn[0].query });
const warmMs = performance.now() - warmStarted;
const segmentsRun = await measure();
const { found } = liveRun;
if (segmentsRun.found !== found) throw new Error(`segments found ${segmentsRun.found} threads, live ${found}`);
rt.redis.disconnect();
rmSync(blobDir, { recursive: true, force: true });

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(2);
};
console.log(
  `${MESSAGES} messages in ${threads} threads stored and indexed in ${seedSeconds.toFixed(1)} s (${Math.round(MESSAGES / seedSeconds)}/s, ${CONCURRENCY} at a time); ` +
    `Redis CPU ${cpuPerMessage.toFixed(0)} µs a message, ${scriptStats?.[2]} µs a store script call (${scriptStats?.[1]} calls); ${indexedWords} indexed words; ${QUERIES} queries, ${(found / QUERIES).toFixed(1)} threads per answer (limit 20).\n` +
    `Every thread moved to segments in ${moveSeconds.toFixed(1)} s (${MOVE_BATCH} threads a call): ${segmentFiles} segment files, ${listed.size} listed, of ${(segmentBytes / 1e6).toFixed(1)} MB together (${Math.round(segmentBytes / MESSAGES)} bytes a message); the first query opened them in ${warmMs.toFixed(0)} ms; the same queries found the same threads.\n`,
);
console.log('| search_threads query | live p50 ms | live p99 ms | segments p50 ms | segments p99 ms |');
console.log('|---|---:|---:|---:|---:|');
const row = (kind, pick) =>
  [liveRun, segmentsRun].map((run) => [50, 99].map((p) => percentile(pick(run.timings), p)).join(' | ')).join(' | ');
for (const kind of Object.keys(KINDS)) console.log(`| ${kind} | ${row(kind, (timings) => timings[kind])} |`);
console.log(`| **all** | ${row('all', (timings) => Object.values(timings).flat())} |`);
console.log('\n| Index memory (MEMORY USAGE) | live bytes | per message | all in segments: bytes | per message |');
console.log('|---|---:|---:|---:|---:|');
for (const kind of Object.keys(live.kinds))
  console.log(
    `| ${kind} | ${live.kinds[kind]} | ${(live.kinds[kind] / MESSAGES).toFixed(1)} | ${segmentsMemory.kinds[kind]} | ${(segmentsMemory.kinds[kind] / MESSAGES).toFixed(2)} |`,
  );
console.log(
  `| **total** | **${live.bytes}** (${live.count} keys) | **${(live.bytes / MESSAGES).toFixed(1)}** | **${segmentsMemory.bytes}** (${segmentsMemory.count} keys) | **${(segmentsMemory.bytes / MESSAGES).toFixed(2)}** |`,
);
process.exit(0);
