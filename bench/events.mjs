// Events benchmark (built sources under dist/; `npm run bench:events` builds first). Loopback only;
// everything it starts, it stops. Prints a markdown table:
//  - event_feed pages of 100 per second over HTTP (wrk through the kit's http-load.sh, bench/kit.sh; the front
//    end in its own process), beside raw XRANGE COUNT 100 on the same stream (redis-benchmark);
//  - signed webhook deliveries per second: SPACES spaces with EVENTS events each already in their
//    streams, `mailbox serve --role worker` started, a local https receiver counting arrivals.
// `--smoke` (@bench-smoke): 8 spaces × 10 events, 100 feed events, 2 s of wrk; no timing judged, but a
// 4xx/5xx, an empty answer or a missing or badly signed delivery still fails the run.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadConfig } from '../dist/src/config.js';
import { createRuntime } from '../dist/src/runtime.js';
import { markFreshStore } from '../dist/src/storage/format.js';
import { spaceKeys } from '../dist/src/redis/keys.js';
import { authenticate, createSpace } from '../dist/actors/space.js';
import { createInbox, resumeInbox, suspendInbox } from '../dist/actors/inbox.js';
import { declareWebhook } from '../dist/actors/webhook.js';
import { freePort } from './lib.mjs';

const smoke = process.argv.includes('--smoke');
const SPACES = Number(process.env.BENCH_SPACES ?? (smoke ? 8 : 256));
/** `mailbox serve --role worker` processes sharing the deliveries. */
const WORKERS = Number(process.env.BENCH_WORKERS ?? 1);
const EVENTS = Number(process.env.BENCH_EVENTS ?? (smoke ? 10 : 80));
const FEED_EVENTS = smoke ? 100 : 1_000;
const LOAD_SECONDS = smoke ? '2' : '10';
const run = mkdtempSync(join(tmpdir(), 'mailbox-bench-events-'));
const children = [];
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(run, { recursive: true, force: true });
});

function fail(why) {
  console.error(`events benchmark: ${why}`);
  process.exit(1);
}
/** The deliveries must all arrive within this; a stuck worker fails the run rather than hanging it. */
const DELIVERIES_DEADLINE_MS = 300_000;

/** A child process; resolves with it once a stdout line matches `ready` (if given). */
function start(command, args, env, ready) {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.lines = (pattern) =>
    new Promise((resolve) => {
      const check = () => {
        const match = pattern.exec(output);
        if (match) {
          child.stdout.off('data', check);
          resolve(match);
        }
      };
      child.stdout.on('data', check);
      check();
    });
  return ready ? child.lines(ready).then(() => child) : Promise.resolve(child);
}

const redisPort = await freePort();
await start(
  'redis-server',
  ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
  {},
  /Ready to accept/,
);
const keyFile = join(run, 'key.pem');
const certFile = join(run, 'cert.pem');
execFileSync(
  'openssl',
  [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=localhost',
    '-addext',
    'subjectAltName=DNS:localhost',
    '-keyout',
    keyFile,
    '-out',
    certFile,
  ],
  { stdio: 'ignore' },
);
const env = {
  REDIS_URL: `redis://127.0.0.1:${redisPort}`,
  MAILBOX_MASTER_KEY: randomBytes(32).toString('base64'),
  WEBHOOK_ALLOW_LOOPBACK: '1',
  WEBHOOK_CA_FILE: certFile,
  PLANS: JSON.stringify({ bench: { inbox_cap: 5, daily_max: 20 } }),
  LOG_LEVEL: 'warn',
  // One key reads the feed as fast as it can: the per-key limiter would measure itself.
  RATE_LIMIT_BURST: '100000000',
  RATE_LIMIT_PER_SECOND: '100000000',
};
const rt = createRuntime(loadConfig(env));
// A new store, marked at today's format before its first space, as the service's first start marks it.
await markFreshStore(rt.redis);

/** A verified space with one inbox whose suspensions make the events. */
async function seedSpace() {
  const space = await createSpace(rt, { human: 'humain@bench.test', plan: 'bench', verified: true });
  const access = await authenticate(rt, space.api_key);
  const inbox = await createInbox(rt, access, {
    username: `b${randomBytes(6).toString('hex')}`,
    domain: rt.config.commonDomain,
    shared: true,
    display_name: 'Banc',
  });
  return { ...space, access, inbox };
}
async function emit(space, count) {
  for (let i = 0; i < count; i++) {
    await suspendInbox(rt, space.space_id, space.inbox.id, `banc ${i}`);
    await resumeInbox(rt, space.space_id, space.inbox.id);
  }
}

// event_feed against raw XRANGE, on one stream of FEED_EVENTS events.
const feedSpace = await seedSpace();
await emit(feedSpace, FEED_EVENTS);
const httpPort = await freePort();
await start('node', ['bin/mailbox.js', 'serve', '--role', 'http'], { ...env, PORT: String(httpPort) }, null);
for (let i = 0; i < 100; i++) {
  if (
    await fetch(`http://127.0.0.1:${httpPort}/healthz`).then(
      (r) => r.ok,
      () => false,
    )
  )
    break;
  await new Promise((resolve) => setTimeout(resolve, 100));
}
const body = join(run, 'feed.json');
writeFileSync(body, JSON.stringify({ limit: 100 }));
const page = await fetch(`http://127.0.0.1:${httpPort}/v1/event_feed`, {
  method: 'POST',
  headers: { authorization: `Bearer ${feedSpace.api_key}`, 'content-type': 'application/json' },
  body: JSON.stringify({ limit: 100 }),
}).then((r) => r.json());
if (page.events?.length !== 100) fail(`event_feed answered ${JSON.stringify(page).slice(0, 300)}`);
const load = (url) =>
  execFileSync(
    'bash',
    [
      join(process.env.BENCH_KIT ?? join(dirname(process.cwd()), 'shared', 'bench'), 'http-load.sh'),
      url,
      body,
      '50',
      LOAD_SECONDS,
    ],
    {
      env: { ...process.env, BENCH_AUTH: `Bearer ${feedSpace.api_key}`, ...(smoke && { BENCH_WARMUP_SECS: '1' }) },
    },
  ).toString();
const field = (line, name) => new RegExp(`${name}=([^ ]+)`).exec(line)?.[1];
const feed = load(`http://127.0.0.1:${httpPort}/v1/event_feed`);
const xrange = execFileSync('redis-benchmark', [
  '-p',
  String(redisPort),
  '-c',
  '50',
  '-n',
  smoke ? '20000' : '200000',
  '-q',
  'XRANGE',
  spaceKeys(feedSpace.space_id).events,
  '-',
  '+',
  'COUNT',
  '100',
]).toString();
const xrangePerSecond = /([\d.]+) requests per second/.exec(xrange)?.[1];

// Webhook deliveries: the backlog first (webhook.test and EVENTS events per space), then the worker.
const expected = SPACES * (EVENTS + 1);
const secretsFile = join(run, 'secrets.json');
const receiver = await start(
  'node',
  ['bench/webhook-receiver.mjs', keyFile, certFile, secretsFile, String(expected)],
  {},
  /port=\d+/,
);
const receiverPort = (await receiver.lines(/port=(\d+)/))[1];
const secrets = {};
await Promise.all(
  Array.from({ length: SPACES }, async () => {
    const space = await seedSpace();
    secrets[space.space_id] = (
      await declareWebhook(rt, space.access, `https://localhost:${receiverPort}/crochet`)
    ).secret;
    await emit(space, EVENTS);
  }),
);
writeFileSync(secretsFile, JSON.stringify(secrets));
const started = performance.now();
for (let i = 0; i < WORKERS; i++) await start('node', ['bin/mailbox.js', 'serve', '--role', 'worker'], env, null);
const deadline = setTimeout(
  () => fail(`not every delivery arrived within ${DELIVERIES_DEADLINE_MS / 1000} s`),
  DELIVERIES_DEADLINE_MS,
);
const result = (await receiver.lines(/(deliveries=.*)\n/))[1];
clearTimeout(deadline);
if (field(result, 'bad_signatures') !== '0') fail(`bad signatures: ${result}`);
const wall = (performance.now() - started) / 1000;

const row = (what, perSecond, detail) => `| ${what} | ${perSecond} | ${detail} |`;
console.log('| Measure | per second | detail |');
console.log('|---|---:|---|');
console.log(
  row(
    'event_feed, pages of 100 (HTTP, wrk -c50)',
    field(feed, 'req_s'),
    `${Number(field(feed, 'req_s')) * 100} events/s; p50 ${field(feed, 'p50_ms')} ms, p99 ${field(feed, 'p99_ms')} ms`,
  ),
);
console.log(
  row('raw XRANGE COUNT 100, same stream (redis-benchmark -c50)', Math.round(Number(xrangePerSecond)), 'Redis alone'),
);
console.log(
  row(
    'event_feed vs raw XRANGE (pages, same run)',
    (Number(field(feed, 'req_s')) / Number(xrangePerSecond)).toFixed(3),
    'the ratio BENCHMARKS.md quotes',
  ),
);
console.log(
  row(
    `signed webhook deliveries to a local https receiver (${SPACES} spaces × ${EVENTS + 1} events, ${WORKERS} worker process${WORKERS > 1 ? 'es' : ''})`,
    field(result, 'per_s'),
    `${field(result, 'deliveries')} in ${field(result, 'secs')} s (first to last arrival; ${wall.toFixed(2)} s from worker start), ` +
      `${field(result, 'sampled')} signatures checked with standardwebhooks, ${field(result, 'bad_signatures')} bad`,
  ),
);
rt.redis.disconnect();
process.exit(0);
