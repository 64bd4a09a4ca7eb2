// Threads moving into history (docs/architecture.md, "History"), on built sources (npm run build): what a
// message costs Redis live and once its thread is in history, and what reading it then costs. Loopback
// only: its own redis-server and data dir (the file blob store), an in-process runtime on a ManualClock
// started 40 days ago. BENCH_SPACES spaces of one inbox receive BENCH_MESSAGES messages in threads of 4
// (one correspondent writes 4 times under one subject), each with 1 KB of French text, a Message-ID and a
// 1 KB raw source; each thread's first message holds a word of its own (ref000123). Received mail only:
// the service's larger record (sent mail would need delivery). Prints the seeding rate; Redis bytes a
// message (INFO used_memory over the spaces before their mail, and MEMORY USAGE of every key of a few
// spaces, by family); get_thread and search_threads (that word) p50/p99 in process on live threads. Then
// the clock moves ARCHIVE_AFTER_DAYS + 1 day on, moveDueThreads moves every thread (threads/s), and the
// same figures follow for threads in history (the process's document cache cold, then warm), with their
// ratios to the live ones and the blob store's bytes a message; last, bench/idle-workers.mjs (Redis CPU
// of an idle worker role beside 100,000 spaces, its history mover included), passed through. Ends with
// markdown rows for BENCHMARKS.md.
//   flock /tmp/mailbox-heavy.lock node bench/history.mjs    # 10^6 messages in 1,000 spaces; BENCH_MESSAGES, BENCH_SPACES
// `--smoke` (@bench-smoke): 2,000 messages in 10 spaces, 20 samples, idle-workers --smoke; no figure
// judged; exits non-zero when a message does not thread, a thread is not moved or a read answers wrong.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { inProcessService, passedChecks } from './lib.mjs';

const { values } = parseArgs({ options: { smoke: { type: 'boolean', default: false } } });
const smoke = values.smoke;
const PER_THREAD = 4;
const THREADS = Math.floor((smoke ? 2_000 : Number(process.env.BENCH_MESSAGES ?? 1_000_000)) / PER_THREAD);
const MESSAGES = THREADS * PER_THREAD;
const SPACES = smoke ? 10 : Number(process.env.BENCH_SPACES ?? 1_000);
const SAMPLES = smoke ? 20 : 300;
const WARMUP = 20;
/** Spaces whose every key is measured by family (MEMORY USAGE), before and after the move. */
const MEASURED_SPACES = Math.min(SPACES, smoke ? 2 : 5);
const CONCURRENCY = 64;
/** The clock's step a received message: threads get distinct activity times. */
const STEP_MS = 3;
/** Threads a moveDueThreads call may move: far more than a space holds. */
const BUDGET = 100_000;
if (THREADS < SPACES || THREADS < 4 * SAMPLES + WARMUP) throw new Error('too few messages for the spaces and samples');

const root = new URL('..', import.meta.url).pathname;
const { rt, clock, load, dataDir, redisServer } = await inProcessService(root, 'history', {
  WEBHOOKS_ENABLED: '0',
});
const { spaceKeys } = await load('src/redis/keys.js');
const { SEGMENT_NAME } = await load('src/blobs/source-log.js');
const { authenticate, createSpace } = await load('actors/space.js');
const { createInbox } = await load('actors/inbox.js');
const { receiveInbound } = await load('actors/inbound.js');
const { moveDueThreads } = await load('actors/history-index.js');
const { callTool } = await load('src/tools/dispatch.js');
const { readThread } = await load('actors/stored-records.js');
// A visit that fails is logged and left for its lease to end: the bench counts them.
let failedVisits = 0;
const logError = rt.log.error.bind(rt.log);
rt.log.error = (msg, fields) => {
  if (msg === 'history visit failed') failedVisits++;
  logError(msg, fields);
};

const TEXT = (
  'Bonjour Marie, suite à notre échange de mardi, voici le point sur la commande 4521 : livraison prévue jeudi, ' +
  'facture envoyée à la comptabilité, reste à confirmer le créneau de réception. Pouvez-vous me dire si 10 h vous convient ? ' +
  'Le transporteur demande un accès au quai de déchargement entre 8 h et 12 h, avec une personne pour signer le bon. ' +
  'Si ce créneau ne convient pas, il propose vendredi matin, sans frais supplémentaires. Pour les palettes consignées, ' +
  "merci de les préparer au même endroit que la dernière fois ; le chauffeur les reprendra au passage. J'ai joint à la " +
  'facture le détail des remises accordées sur les références du catalogue d’automne, ainsi que le relevé des avoirs ' +
  "restant à imputer. N'hésitez pas à revenir vers moi si un montant vous semble inexact, je corrigerai avant la clôture " +
  'du mois. Merci et bonne journée, Paul (équipe ventes).'
).padEnd(1024, '.');

const source = (from, subject, messageId, text) =>
  Buffer.from(
    `From: ${from}\r\nTo: banc@x\r\nSubject: ${subject}\r\nMessage-ID: ${messageId}\r\n` +
      `DKIM-Signature: v=1; a=rsa-sha256; d=exp.test; s=s1; b=${randomBytes(180).toString('base64')}\r\n\r\n${text}\r\n`,
  );
function receive(space, from, subject, text) {
  const messageId = `<${randomBytes(8).toString('hex')}@exp.test>`;
  return receiveInbound(
    rt,
    space.spaceId,
    { id: space.inbox.id, address: space.inbox.address },
    {
      from,
      from_name: 'Marie Client',
      reply_to: '',
      subject,
      text,
      html: '',
      message_id_header: messageId,
      in_reply_to: '',
      references: [],
      automatic: false,
      attachments: [],
      source: source(from, subject, messageId, text),
      auth_results: passedChecks(from),
    },
  );
}

/** Runs `count` calls of `one(i)`, CONCURRENCY at a time. */
async function many(count, one) {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) await one(next++);
    }),
  );
}

const usedMemory = async () => Number(/used_memory:(\d+)/.exec(await rt.redis.info('memory'))[1]);

const SQLITE_HEADER = Buffer.from('SQLite format 3\0');
/** Whether a blob is a search segment file (an SQLite database) rather than a history document. */
function isSqlite(path) {
  const head = Buffer.alloc(SQLITE_HEADER.length);
  const fd = openSync(path, 'r');
  try {
    return readSync(fd, head, 0, head.length, 0) === head.length && head.equals(SQLITE_HEADER);
  } finally {
    closeSync(fd);
  }
}

/**
 * Bytes under the blob store's folder: the raw sources' segments, and the other blobs: history documents
 * and search segment files (those a merge replaced too, until the hourly sweep removes them), the
 * latter also apart.
 */
function blobBytes() {
  const bytes = { segments: 0, documents: 0, documentCount: 0, searchSegments: 0, searchSegmentCount: 0 };
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (SEGMENT_NAME.test(entry.name)) bytes.segments += statSync(path).size;
      else {
        const size = statSync(path).size;
        bytes.documents += size;
        bytes.documentCount++;
        if (isSqlite(path)) {
          bytes.searchSegments += size;
          bytes.searchSegmentCount++;
        }
      }
    }
  };
  walk(join(dataDir, 'blobs'));
  return bytes;
}

/** Every key of a space by family (ids replaced by …): bytes from MEMORY USAGE, pipelined. */
async function footprint(spaceId, families) {
  const keys = [];
  let cursor = '0';
  do {
    const [next, found] = await rt.redis.scan(cursor, 'MATCH', `*{${spaceId}}*`, 'COUNT', 5000);
    cursor = next;
    keys.push(...found);
  } while (cursor !== '0');
  for (let i = 0; i < keys.length; i += 1_000) {
    const usage = rt.redis.pipeline();
    const batch = keys.slice(i, i + 1_000);
    for (const key of batch) usage.call('MEMORY', 'USAGE', key, 'SAMPLES', '0');
    (await usage.exec()).forEach(([error, size], j) => {
      if (error) throw error;
      const family = batch[j]
        .replace(spaceId, 'spc')
        .replace(/(msg|thr|inb|att|log|evt|key)_[0-9a-z]{20}/g, '$1_…')
        .replace(/:idem:[0-9a-f]+/, ':idem:…')
        .replace(/:\d{4}-\d{2}-\d{2}$/, ':<day>')
        .replace(/:hist:\d+$/, ':hist:<n>')
        .replace(/:s:w:.*/, ':s:w:<word>');
      const row = families.get(family) ?? { keys: 0, bytes: 0 };
      row.keys++;
      row.bytes += Number(size ?? 0);
      families.set(family, row);
    });
  }
}

/** The measured spaces' keys by family, and the messages they hold. */
async function measuredFootprint() {
  const families = new Map();
  let messages = 0;
  for (const space of spaces.slice(0, MEASURED_SPACES)) {
    await footprint(space.spaceId, families);
    messages += PER_THREAD * (await rt.redis.zcard(spaceKeys(space.spaceId).threads));
  }
  return { families, messages };
}

/** p50 and p99 (ms) of `call` over the threads, one call each, in turn. */
async function latency(threads, call) {
  const times = [];
  for (const thread of threads) {
    const started = performance.now();
    await call(thread);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  return { p50: at(0.5), p99: at(0.99) };
}
async function getThread({ space, threadId }) {
  const { output } = await callTool(rt, space.access, 'get_thread', { thread_id: threadId });
  if (output.thread.id !== threadId || output.messages.length !== PER_THREAD)
    throw new Error(`get_thread ${threadId}: ${output.messages.length} messages`);
}
async function search({ space, threadId, word }) {
  const { output } = await callTool(rt, space.access, 'search_threads', { query: word });
  const hit = output.items.find((item) => item.thread.id === threadId);
  if (!hit || !hit.snippet.includes(word)) throw new Error(`search_threads ${word}: thread ${threadId} not found`);
}

const ms = (n) => n.toFixed(2);
const perSecond = (count, started) => count / ((performance.now() - started) / 1000);
console.log(
  `# bench/history.mjs (${smoke ? 'smoke' : 'full'}): ${MESSAGES} received messages (received mail only: the larger ` +
    `record; sent mail would need delivery), ${THREADS} threads of ${PER_THREAD}, ${SPACES} spaces of one inbox`,
);

// The spaces, then Redis's baseline: what their mail adds is measured over it.
const spaces = new Array(SPACES);
await many(SPACES, async (i) => {
  const space = await createSpace(rt, { human: `humain-${i}@bench.test`, plan: 'bench', verified: true });
  const access = await authenticate(rt, space.api_key);
  const inbox = await createInbox(rt, access, {
    username: `banc-${i}-${randomBytes(3).toString('hex')}`,
    domain: rt.config.commonDomain,
    shared: true,
    display_name: 'Banc',
  });
  spaces[i] = { spaceId: space.space_id, access, inbox };
});
const baseline = await usedMemory();

// Thread t lives in space t % SPACES, as its n-th thread (n = t / SPACES). Only the sampled threads' ids are kept.
const sampled = new Set();
while (sampled.size < 4 * SAMPLES + WARMUP) sampled.add(Math.floor(Math.random() * THREADS));
const picked = new Map();
const seedStarted = performance.now();
let seeded = 0;
await many(THREADS, async (t) => {
  const space = spaces[t % SPACES];
  const n = Math.floor(t / SPACES);
  const word = `ref${String(n).padStart(6, '0')}`;
  const from = `client${n}@exp.test`;
  const subject = `Commande ${4000 + n}`;
  let threadId = null;
  for (let k = 0; k < PER_THREAD; k++) {
    clock.advance(STEP_MS);
    const got = await receive(space, from, subject, k === 0 ? `${TEXT} Référence ${word}.` : TEXT);
    if (got.duplicate || (threadId && got.thread_id !== threadId))
      throw new Error(`message ${k} of ${from} in ${space.spaceId} did not join its thread`);
    threadId = got.thread_id;
  }
  if (sampled.has(t)) picked.set(t, { space, threadId, word });
  seeded += PER_THREAD;
  if (!smoke && seeded % 100_000 === 0)
    console.log(`  seeded ${seeded} messages, ${perSecond(seeded, seedStarted).toFixed(0)} a second`);
});
const seedRate = perSecond(MESSAGES, seedStarted);
console.log(
  `seeded ${MESSAGES} messages in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s: ${seedRate.toFixed(0)} a second`,
);

// Every space's pending search entries filed (a search files them before it reads): the index as it stays.
for (const space of spaces) await callTool(rt, space.access, 'search_threads', { query: 'commande', limit: 1 });
const live = { bytes: ((await usedMemory()) - baseline) / MESSAGES, ...(await measuredFootprint()) };
const sourceBytes = blobBytes();
console.log(`Redis bytes a message, live: ${live.bytes.toFixed(0)} (used_memory over the spaces' baseline)`);

const ordered = [...sampled].map((t) => picked.get(t));
const warmup = ordered.slice(0, WARMUP);
const group = (i) => ordered.slice(WARMUP + i * SAMPLES, WARMUP + (i + 1) * SAMPLES);
const [liveThreads, liveWords, oldThreads, oldWords] = [group(0), group(1), group(2), group(3)];
// The code warm: the samples time reads only.
for (const thread of warmup) {
  await getThread(thread);
  await search(thread);
}
const reads = { live: { get: await latency(liveThreads, getThread), search: await latency(liveWords, search) } };

// Idle past ARCHIVE_AFTER_DAYS: every thread moves.
clock.advance(rt.config.history.afterMs + 24 * 3600 * 1000);
const moveStarted = performance.now();
let moved = 0;
for (let step; (step = await moveDueThreads(rt, BUDGET)) > 0;) {
  moved += step;
  if (!smoke) console.log(`  moved ${moved} threads, ${perSecond(moved, moveStarted).toFixed(0)} a second`);
}
const moveSeconds = (performance.now() - moveStarted) / 1000;
console.log(
  `moved ${moved} threads (${moved * PER_THREAD} messages) in ${moveSeconds.toFixed(1)} s: ${(moved / moveSeconds).toFixed(0)} threads a second` +
    (failedVisits ? `, ${failedVisits} failed visits` : ''),
);
const archived = { bytes: ((await usedMemory()) - baseline) / MESSAGES, ...(await measuredFootprint()) };
const allBlobs = blobBytes();
console.log(`Redis bytes a message, in history: ${archived.bytes.toFixed(0)} (used_memory over the spaces' baseline)`);

// Every sampled thread, and every thread of the measured spaces, names its document.
const checked = [...ordered];
for (const space of spaces.slice(0, MEASURED_SPACES))
  for (const threadId of await rt.redis.zrange(spaceKeys(space.spaceId).threads, 0, -1))
    checked.push({ space, threadId });
let missing = 0;
for (const { space, threadId } of checked) if (!(await readThread(rt, space.spaceId, threadId))?.history) missing++;
if (moved !== THREADS || failedVisits || missing)
  throw new Error(
    `moved ${moved} threads of ${THREADS}; ${failedVisits} failed visits; ${missing} checked without history`,
  );

for (const thread of warmup) {
  await getThread(thread);
  await search(thread);
}
reads.cold = { get: await latency(oldThreads, getThread), search: await latency(oldWords, search) };
reads.warm = { get: await latency(oldThreads, getThread), search: await latency(oldWords, search) };

console.log(`\nRedis bytes a message by key family, every key of ${MEASURED_SPACES} spaces (MEMORY USAGE):\n`);
console.log('| key family | keys live | live | keys in history | in history |\n|---|---:|---:|---:|---:|');
const familyRows = [...new Set([...live.families.keys(), ...archived.families.keys()])]
  .map((family) => ({ family, before: live.families.get(family), after: archived.families.get(family) }))
  .sort((a, b) => (b.after?.bytes ?? 0) - (a.after?.bytes ?? 0) || (b.before?.bytes ?? 0) - (a.before?.bytes ?? 0));
const share = (row, messages) => (row ? (row.bytes / messages).toFixed(1) : '-');
for (const { family, before, after } of familyRows)
  if ((before?.bytes ?? 0) / live.messages >= 0.5 || (after?.bytes ?? 0) / archived.messages >= 0.5)
    console.log(
      `| \`${family}\` | ${before?.keys ?? 0} | ${share(before, live.messages)} | ${after?.keys ?? 0} | ${share(after, archived.messages)} |`,
    );
const total = (families) => [...families.values()].reduce((sum, row) => sum + row.bytes, 0);
console.log(
  `| all | | ${(total(live.families) / live.messages).toFixed(0)} | | ${(total(archived.families) / archived.messages).toFixed(0)} |`,
);

console.log(`\nIdle workers (bench/idle-workers.mjs${smoke ? ' --smoke' : ''}):\n`);
rt.redis.disconnect();
redisServer.kill('SIGKILL');
const idle = await new Promise((resolve, reject) => {
  const child = spawn(process.execPath, [join(root, 'bench/idle-workers.mjs'), ...(smoke ? ['--smoke'] : [])], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
    process.stdout.write(chunk);
  });
  child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`idle-workers exited with ${code}`))));
});
const idleRow = /\| with an idle worker role \|([^|]*)\|([^|]*)\|([^|]*)\|/.exec(idle);
if (!idleRow) throw new Error('idle-workers printed no row for the worker role');

const ratio = (of, to) =>
  `${ms(of.p50)} / ${ms(of.p99)} (${(of.p50 / to.p50).toFixed(2)}x / ${(of.p99 / to.p99).toFixed(2)}x)`;
console.log(`\nResults (${MESSAGES} messages, ${SPACES} spaces; reads in process, ms p50 / p99, ratio to live):\n`);
console.log('| figure | measured | goal |\n|---|---:|---|');
const rows = [
  ['seeding (received messages)', `${seedRate.toFixed(0)} a second`, ''],
  ['moving into history (moveDueThreads)', `${(moved / moveSeconds).toFixed(0)} threads a second`, ''],
  ['Redis bytes a message, live (used_memory)', live.bytes.toFixed(0), ''],
  ['Redis bytes a message in history (used_memory)', archived.bytes.toFixed(0), 'at most 200'],
  [
    `Redis bytes a message in history (MEMORY USAGE, ${MEASURED_SPACES} spaces' keys)`,
    (total(archived.families) / archived.messages).toFixed(0),
    'at most 200',
  ],
  ['blob store bytes a message: raw sources', (sourceBytes.segments / MESSAGES).toFixed(0), ''],
  [
    'blob store bytes a message: history documents and search segment files',
    `${(allBlobs.documents / MESSAGES).toFixed(0)} (${allBlobs.documentCount} files)`,
    '',
  ],
  [
    'of which search segment files (those a merge replaced included)',
    `${(allBlobs.searchSegments / MESSAGES).toFixed(0)} (${allBlobs.searchSegmentCount} files)`,
    '',
  ],
  ['get_thread live', `${ms(reads.live.get.p50)} / ${ms(reads.live.get.p99)}`, ''],
  ['get_thread in history, cold cache', ratio(reads.cold.get, reads.live.get), 'within 2x'],
  ['get_thread in history, warm cache', ratio(reads.warm.get, reads.live.get), 'within 2x'],
  ['search_threads live', `${ms(reads.live.search.p50)} / ${ms(reads.live.search.p99)}`, ''],
  ['search_threads in history, cold cache', ratio(reads.cold.search, reads.live.search), 'within 2x'],
  ['search_threads in history, warm cache', ratio(reads.warm.search, reads.live.search), 'within 2x'],
  ['idle worker role: Redis CPU, % of a core', idleRow[3].trim(), 'under 1 %'],
];
for (const [figure, measured, goal] of rows) console.log(`| ${figure} | ${measured} | ${goal} |`);
process.exit(0);
