// The kill drills' driver (bench/drills.sh builds and runs it). One redis-server (append-only, on a
// scratch dir), two `serve --role http` front ends and one `serve --role worker` relaying to a
// counting SMTP sink in this process. Each drill sends N send_email calls with idempotency keys, each
// failed or unanswered call retried with the same key on the other front end (docs/tools.md), kills
// one process with SIGKILL during the load and restarts it, waits for the queue to drain, and counts
// its messages: acknowledged, stored, delivered, lost and duplicated. Loopback only; everything it
// starts, it stops. `--smoke`: a few messages per drill, for CI. Exit 1 when a drill lost an
// acknowledged message, did not drain, or delivered a copy outside the documented window.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { spaceKeys } from '../dist/src/redis/keys.js';
import { freePort, processGroup, until, startSink } from './lib.mjs';

const smoke = process.argv.includes('--smoke');
const run = process.env.DRILLS_RUN;
if (!run) throw new Error('DRILLS_RUN (a scratch directory) must be set: run bench/drills.sh');
const MESSAGES = smoke ? 24 : 200;
const CONCURRENCY = 8;
/** Short, so a dead worker's messages leave within seconds; deliveries to the sink take milliseconds. */
const LEASE_MS = 2000;
const DRAIN_MS = 45_000;
const CALL_DEADLINE_MS = 30_000;

const DRILLS = [
  { name: 'front end', fsync: 'everysec', victim: 'http0', downMs: 1000 },
  { name: 'redis, appendfsync everysec', fsync: 'everysec', victim: 'redis', downMs: 1000 },
  { name: 'redis, appendfsync always', fsync: 'always', victim: 'redis', downMs: 1000 },
  // Restarted once the dead worker's lease ran out: the new worker's first sweep takes its messages.
  { name: 'delivery worker', fsync: 'everysec', victim: 'worker', downMs: LEASE_MS + 500 },
];

const { procs, start, stop } = processGroup(run);
const kill = (name, signal) => stop(procs.get(name), signal);
/** The service's processes first, then Redis, which they need to stop cleanly. */
async function stopAll() {
  const names = [...procs.keys()];
  await Promise.all(names.filter((name) => !name.endsWith('-redis')).map((name) => kill(name, 'SIGTERM')));
  await Promise.all(names.filter((name) => name.endsWith('-redis')).map((name) => kill(name, 'SIGTERM')));
  procs.clear();
}

/** One send_email until it is answered 200, retried with the same key; its message id, or the last failure. */
async function sendOne(fronts, auth, body, stats) {
  const end = Date.now() + CALL_DEADLINE_MS;
  for (let attempt = 0; ; attempt++) {
    const port = fronts[attempt % fronts.length];
    let failure;
    try {
      const res = await fetch(`http://127.0.0.1:${port}/v1/send_email`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(5000),
      });
      const answer = await res.json();
      if (res.status === 200) return { id: answer.message.id };
      failure = `${res.status} ${answer.error?.code ?? ''}`;
      if (res.status < 500 && res.status !== 429) return { failure };
    } catch (error) {
      failure = error.cause?.code ?? error.name;
    }
    stats.retries++;
    if (Date.now() > end) return { failure };
    await sleep(200);
  }
}

/** The processes and the space every drill shares; `restart` starts the victim again. */
async function setup() {
  const [redisPort, ...httpPorts] = await Promise.all([freePort(), freePort(), freePort()]);
  const sink = await startSink();
  const redis = new Redis({ port: redisPort, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: null });
  // Refused connections while Redis is down are the drill; each command waits for it to come back.
  redis.on('error', () => {});
  const ctx = { redis, sink, httpPorts, fsync: 'everysec' };
  const startRedis = async () => {
    start('redis', 'redis-server', [
      '--port',
      String(redisPort),
      '--bind',
      '127.0.0.1',
      '--dir',
      run,
      '--save',
      '',
      '--appendonly',
      'yes',
      '--appendfsync',
      ctx.fsync,
    ]);
    await until('redis-server', async () => (await redis.ping()) === 'PONG');
  };
  const env = {
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    MAILBOX_DATA_DIR: run,
    OUTBOUND: `smtp://127.0.0.1:${sink.port}`,
    DELIVERY_LEASE_MS: String(LEASE_MS),
  };
  const startHttp = async (i) => {
    start(`http${i}`, process.execPath, ['bin/mailbox.js', 'serve', '--role', 'http'], {
      ...env,
      PORT: String(httpPorts[i]),
    });
    await until('front end', async () => (await fetch(`http://127.0.0.1:${httpPorts[i]}/healthz`)).ok);
  };
  const startWorker = async () =>
    start('worker', process.execPath, ['bin/mailbox.js', 'serve', '--role', 'worker'], env);
  ctx.restart = { http0: () => startHttp(0), redis: startRedis, worker: startWorker };

  await startRedis();
  await Promise.all([startHttp(0), startHttp(1), startWorker()]);
  const seed = spawn(process.execPath, ['bench/seed.mjs', join(run, 'body.json')], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let apiKey = '';
  seed.stdout.on('data', (chunk) => (apiKey += chunk));
  await new Promise((resolve) => seed.on('exit', resolve));
  ctx.auth = `Bearer ${apiKey.trim()}`;
  ctx.base = JSON.parse(readFileSync(join(run, 'body.json'), 'utf8'));
  ctx.keys = spaceKeys(await onlySpace(redis));
  return ctx;
}

/** The one space of the drills' Redis (the seed's). */
async function onlySpace(redis) {
  const [, found] = await redis.scan('0', 'MATCH', spaceKeys('spc_*').space, 'COUNT', 10_000);
  if (found.length !== 1) throw new Error(`expected one space in the drills' Redis, found ${found.length}`);
  return found[0].slice(found[0].indexOf('{') + 1, found[0].indexOf('}'));
}

async function drill(ctx, { name, fsync, victim, downMs }) {
  const { redis, sink, keys } = ctx;
  if (fsync !== ctx.fsync) {
    ctx.fsync = fsync; // for the restart too
    await redis.config('SET', 'appendfsync', fsync);
  }
  const acked = new Map();
  const refused = [];
  const stats = { retries: 0 };
  const deliveredNow = () => [...acked.values()].filter((id) => sink.copies.has(id)).length;

  // The fault, once a third of the drill's messages are acknowledged (a third delivered, for the
  // worker). `sending` then names the messages taken whose outcome is not written: the window where a
  // copy may already be at the peer (docs/operations.md). Read after a worker dies; before Redis does,
  // so a message taken in the instant between is counted outside.
  let window = new Set();
  const third = Math.floor(MESSAGES / 3);
  const inFlight = async () => new Set(await redis.zrange(keys.sending, 0, -1));
  const fault = until(
    'the fault',
    async () => (victim === 'worker' ? deliveredNow() : acked.size) >= third,
    60_000,
  ).then(async () => {
    if (victim === 'redis') window = await inFlight();
    await kill(victim, 'SIGKILL');
    if (victim !== 'redis') window = await inFlight();
    await sleep(downMs);
    await ctx.restart[victim]();
  });
  fault.catch(() => {}); // awaited after the load: a failure then ends the drills, not the process before

  let next = 0;
  const client = async () => {
    while (next < MESSAGES) {
      const i = next++;
      const body = { ...ctx.base, subject: `${name}: exercice ${i}`, idempotency_key: `${victim}-${fsync}-${i}` };
      const answer = await sendOne(i % 2 ? ctx.httpPorts : [...ctx.httpPorts].reverse(), ctx.auth, body, stats);
      if (answer.id) acked.set(body.idempotency_key, answer.id);
      else refused.push(answer.failure);
    }
  };
  const began = Date.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, client));
  await fault;
  const loaded = Date.now();

  // The drain: nothing queued nor in flight any more.
  let drained = true;
  await until(
    'drain',
    async () => (await redis.zcard(keys.queue)) + (await redis.zcard(keys.sending)) === 0,
    DRAIN_MS,
  ).catch(() => (drained = false));
  await sleep(500); // a copy's DATA may end just after its outcome is written
  const drainedIn = (Date.now() - loaded) / 1000;

  const ids = [...acked.values()];
  let stored = 0;
  for (const id of ids) stored += await redis.exists(keys.message(id));
  const duplicates = ids.filter((id) => (sink.copies.get(id)?.length ?? 0) > 1);
  return {
    name,
    acknowledged: acked.size,
    stored,
    delivered: deliveredNow(),
    lost: ids.length - stored,
    duplicates: duplicates.length,
    window: window.size,
    outside: duplicates.filter((id) => !window.has(id)).length,
    refused: refused.length,
    retries: stats.retries,
    loadSeconds: (loaded - began) / 1000,
    drained,
    drainedIn,
  };
}

/** Every message of the space in Redis, acknowledged or not (a call run twice would show here). */
async function messagesInRedis({ redis, keys }) {
  let cursor = '0';
  let count = 0;
  do {
    const [nextCursor, found] = await redis.scan(cursor, 'MATCH', keys.message('*'), 'COUNT', 1000);
    cursor = nextCursor;
    count += found.length;
  } while (cursor !== '0');
  return count;
}

const stopped = async (code) => {
  await stopAll();
  process.exit(code);
};
process.on('SIGINT', () => stopped(130));
process.on('SIGTERM', () => stopped(143));
const rows = [];
let totals;
try {
  const ctx = await setup();
  for (const spec of DRILLS) {
    rows.push(await drill(ctx, spec));
    process.stderr.write(`drill done: ${spec.name}\n`);
  }
  // The inbox's count of queued messages: 0 once drained, unless a script ran twice.
  const queued = await ctx.redis.hget(ctx.keys.inbox(ctx.base.inbox_id), 'queued');
  totals = {
    queued,
    inRedis: await messagesInRedis(ctx),
    atSink: [...ctx.sink.copies.keys()].length,
    copies: [...ctx.sink.copies.values()].reduce((n, t) => n + t.length, 0),
  };
  ctx.redis.disconnect();
  await stopAll();
  await new Promise((resolve) => ctx.sink.server.close(resolve));
} catch (error) {
  process.stderr.write(`drill failed: ${error.stack}\n`);
  await stopped(2);
}

const acknowledged = rows.reduce((n, r) => n + r.acknowledged, 0);
console.log(
  `${MESSAGES} send_email per drill, ${CONCURRENCY} clients, DELIVERY_LEASE_MS=${LEASE_MS}; the victim killed with SIGKILL once a third were acknowledged (delivered, for the worker).`,
);
console.log();
console.log(
  '| drill | acknowledged | stored | delivered | lost | in flight at the kill | duplicates | in the window | retried calls | refused | load s | drained after s |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|');
for (const r of rows) {
  const inWindow = r.duplicates === 0 ? '-' : r.outside === 0 ? 'yes' : `no: ${r.outside} outside`;
  const drainedIn = r.drained ? r.drainedIn.toFixed(1) : `not within ${DRAIN_MS / 1000}`;
  console.log(
    `| ${r.name} | ${r.acknowledged} | ${r.stored} | ${r.delivered} | ${r.lost} | ${r.window} | ${r.duplicates} | ${inWindow} | ${r.retries} | ${r.refused} | ${r.loadSeconds.toFixed(1)} | ${drainedIn} |`,
  );
}
console.log();
console.log(
  `All drills: ${acknowledged} acknowledged, ${totals.inRedis} messages in Redis, ${totals.atSink} distinct ids at the sink in ${totals.copies} copies; the inbox's \`queued\` counter after the drain: ${totals.queued} (0 expected).`,
);
const failed = rows.filter((r) => r.lost || r.acknowledged !== r.delivered || r.outside || r.refused || !r.drained);
process.exit(failed.length || totals.inRedis !== acknowledged ? 1 : 0);
