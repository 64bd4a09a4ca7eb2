// Realtime socket benchmark (built sources under dist/; `npm run bench:ws` builds first). Loopback only;
// everything it starts, it stops. Prints a markdown table:
//  - push latency, emission to socket: one subscribed socket, events emitted one at a time (the next
//    once the last arrived), from just before the emitting script is called to the client's receipt;
//    p50/p99, alone, then again while the front end holds the idle sockets below;
//  - idle sockets held by one front end (`mailbox serve --role http`, its own process, on uWS or with
//    BENCH_WS_ENGINE=node on node:http and the ws package): SOCKETS
//    sockets over SPACES spaces, each authenticated and subscribed (so SPACES blocking readers), and
//    the process's RSS before and after.
// `--smoke` (@bench-smoke): a few hundred events and sockets, seconds, no target: it checks the benchmark still runs.
import { spawn } from 'node:child_process';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { loadConfig } from '../dist/src/config.js';
import { createRuntime } from '../dist/src/runtime.js';
import { authenticate, createSpace } from '../dist/actors/space.js';
import { createInbox, resumeInbox, suspendInbox } from '../dist/actors/inbox.js';
import { freePort } from './lib.mjs';

const smoke = process.argv.includes('--smoke');
const SOCKETS = Number(process.env.BENCH_WS_SOCKETS ?? (smoke ? 200 : 10_000));
const SPACES = Number(process.env.BENCH_WS_SPACES ?? (smoke ? 4 : 100));
const EVENTS = Number(process.env.BENCH_WS_EVENTS ?? (smoke ? 100 : 2_000));
/** `uws` (the default engine on Node 20) or `node` (node:http and the ws package's server). */
const ENGINE = process.env.BENCH_WS_ENGINE ?? 'uws';
/** Sockets opening at once. */
const OPENING = 200;
const run = mkdtempSync(join(tmpdir(), 'mailbox-bench-ws-'));
const children = [];
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(run, { recursive: true, force: true });
});

/** A child process; resolves once its output matches `ready` (if given). */
function start(command, args, env, ready) {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  if (!ready) return Promise.resolve(child);
  return new Promise((resolve, reject) => {
    const check = (chunk) => {
      output += chunk;
      if (ready.test(output)) resolve(child);
    };
    child.stdout.on('data', check);
    child.stderr.on('data', check);
    child.once('exit', (code) => reject(new Error(`${command} exited (${code}): ${output}`)));
  });
}

const redisPort = await freePort();
await start(
  'redis-server',
  ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
  {},
  /Ready to accept/,
);
const env = {
  REDIS_URL: `redis://127.0.0.1:${redisPort}`,
  PLANS: JSON.stringify({ bench: { inbox_cap: 5, daily_max: 20 } }),
  LOG_LEVEL: 'warn',
  HTTP_ENGINE: ENGINE,
  // Every socket authenticates: the per-key limiter would measure itself.
  RATE_LIMIT_BURST: '100000000',
  RATE_LIMIT_PER_SECOND: '100000000',
  // A hundred sockets of one key per space: the front end's capacity is measured, not the per-key caps.
  WS_MAX_SOCKETS_PER_KEY: '100000',
  WS_MAX_SOCKETS_PER_SPACE: '100000',
};
const rt = createRuntime(loadConfig(env));
const httpPort = await freePort();
const front = await start(
  'node',
  ['bin/mailbox.js', 'serve', '--role', 'http'],
  { ...env, PORT: String(httpPort) },
  null,
);
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
const rssMiB = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${front.pid}/status`, 'utf8'))[1]) / 1024;

async function seedSpace() {
  const space = await createSpace(rt, { human: 'humain@bench.test', plan: 'bench', verified: true });
  const access = await authenticate(rt, space.api_key);
  const inbox = await createInbox(rt, access, {
    username: `b${Math.random().toString(36).slice(2, 10)}`,
    domain: rt.config.commonDomain,
    shared: true,
    display_name: 'Banc',
  });
  return { ...space, inbox };
}

/** A socket authenticated on the upgrade and subscribed; resolves at `ready`, then hands the live events to `onEvent`. */
function subscribe(apiKey, onEvent = () => {}) {
  let live = false;
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${httpPort}/v1/events/ws`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    ws.once('open', () => ws.send('{"type":"subscribe"}'));
    ws.once('error', reject);
    ws.on('message', (data) => {
      const message = JSON.parse(String(data));
      if (message.type === 'ready') {
        live = true;
        resolve(ws);
      } else if (message.type === 'event') {
        if (live) onEvent(message);
      } else reject(new Error(String(data)));
    });
  });
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Closed loop: emit, wait for the socket to receive it, emit the next. Milliseconds, sorted. */
async function pushLatencies(space) {
  let arrived = null;
  const ws = await subscribe(space.api_key, () => arrived());
  const latencies = [];
  for (let i = 0; i < EVENTS; i++) {
    const received = new Promise((resolve) => (arrived = resolve));
    const emitted = performance.now();
    await suspendInbox(rt, space.space_id, space.inbox.id, `banc ${i}`);
    await received;
    latencies.push(performance.now() - emitted);
    await resumeInbox(rt, space.space_id, space.inbox.id);
  }
  ws.terminate();
  return latencies.sort((a, b) => a - b);
}

const latencyRow = (what, sorted) =>
  `| push latency, emission to socket, ${what} (${sorted.length} events) | p50 ${percentile(sorted, 50).toFixed(2)} ms, p99 ${percentile(sorted, 99).toFixed(2)} ms, max ${sorted.at(-1).toFixed(2)} ms |`;

const latencySpace = await seedSpace();
const alone = await pushLatencies(latencySpace);

const spaces = await Promise.all(Array.from({ length: SPACES }, seedSpace));
const rssBefore = rssMiB();
const idle = [];
const opening = performance.now();
for (let i = 0; i < SOCKETS; i += OPENING) {
  const batch = Array.from({ length: Math.min(OPENING, SOCKETS - i) }, (_, j) =>
    subscribe(spaces[(i + j) % SPACES].api_key),
  );
  idle.push(...(await Promise.all(batch)));
}
const openSeconds = (performance.now() - opening) / 1000;
await new Promise((resolve) => setTimeout(resolve, smoke ? 200 : 3000));
const rssAfter = rssMiB();
const beside = await pushLatencies(latencySpace);

console.log('| Measure | result |');
console.log('|---|---|');
console.log(latencyRow('alone', alone));
console.log(latencyRow(`beside ${SOCKETS} idle sockets`, beside));
console.log(
  `| ${SOCKETS} idle sockets on one front end (${ENGINE === 'uws' ? 'uWS' : 'node:http + ws'}), ${SPACES} spaces (${SPACES} blocking readers) | opened and subscribed in ${openSeconds.toFixed(1)} s; ` +
    `RSS ${rssBefore.toFixed(0)} MiB before, ${rssAfter.toFixed(0)} MiB after: ${(((rssAfter - rssBefore) * 1024) / SOCKETS).toFixed(1)} KiB a socket |`,
);
for (const ws of idle) ws.terminate();
rt.redis.disconnect();
process.exit(0);
