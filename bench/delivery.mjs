// Delivery benchmark (built sources under dist/; bench/delivery.sh builds first). Loopback only;
// everything it starts, it stops. The path mail takes out of the service: queue -> DKIM -> SMTP.
//  - the project: MESSAGES send_email calls queued in 4 spaces × 4 common-domain inboxes (created 40
//    days ago: warm-up over, no spacing, window always open), then one `mailbox serve --role worker`
//    relaying (OUTBOUND=smtp://, nodemailer's pool of 5) to postfix's smtp-sink, each message DKIM-signed
//    with the service key. Messages per second from the first departure to the last (sent_at);
//  - the floor, same round: bench/floor-delivery.mjs sending the same messages (the worker's own
//    OutgoingMail of each, built beforehand) through the project's relay transport (composition, DKIM
//    signature, nodemailer's pooled SMTP) with no Redis, as many in flight as the worker has jobs;
//  - postfix relaying, same round: smtp-source (one of these signed messages, -F) -> postfix (a scratch
//    `postfix -c DIR` instance on a loopback port) -> the same smtp-sink; from the first injection to
//    an empty postfix queue;
//  - then the time from each message's due time (its slot) to its departure (sent_at), p50/p99, with
//    send_email called at half the worker's median rate for LATENCY_SECONDS while the worker runs.
// Placement: Redis, the worker, the floor and postfix on core 1, smtp-sink, smtp-source and this driver
// on core 0. Prints markdown tables. Exit 1 when a message is not sent, a floor send fails, or
// postfix defers mail. `--smoke` (what `bash bench/delivery.sh --smoke` runs): 200 messages, one round,
// 2 s of latency load; no timing judged.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ManualClock } from '../dist/src/clock.js';
import { loadConfig } from '../dist/src/config.js';
import { createRuntime } from '../dist/src/runtime.js';
import { markFreshStore } from '../dist/src/storage/format.js';
import { spaceKeys } from '../dist/src/redis/keys.js';
import { callTool } from '../dist/src/tools/dispatch.js';
import { composeMessage } from '../dist/src/delivery/mime.js';
import { outgoing } from '../dist/src/workers/send.js';
import { readInbox, readMessage } from '../dist/actors/stored-records.js';
import { authenticate, createSpace } from '../dist/actors/space.js';
import { createInbox } from '../dist/actors/inbox.js';
import { freePort } from './lib.mjs';

const smoke = process.argv.includes('--smoke');
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? (smoke ? 200 : 3000));
const ROUNDS = smoke ? 1 : 3;
const LATENCY_SECONDS = smoke ? 2 : 20;
const SPACES = 4;
const INBOXES = 4;
/** The worker's BullMQ concurrency (src/workers/send.ts): jobs, hence inboxes, delivered at once. */
const WORKER_JOBS = 8;
const DRAIN_DEADLINE_MS = smoke ? 60_000 : 600_000;
const run = mkdtempSync(join(tmpdir(), 'mailbox-bench-delivery-'));
const children = [];
let postfixDir = null;
function stopAll() {
  for (const child of children) child.kill('SIGKILL');
  if (postfixDir) execFileSync('postfix', ['-c', postfixDir, 'abort'], { stdio: 'ignore' });
  postfixDir = null;
}
process.on('exit', () => {
  stopAll();
  rmSync(run, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

function fail(why) {
  console.error(`delivery benchmark: ${why}`);
  process.exit(1);
}

async function until(what, check, ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await sleep(50);
  }
  // A peer that died says so (redis-server writes its reasons to its stdout, which is piped).
  const exited = children
    .filter((child) => child.exitCode !== null || child.signalCode !== null)
    .map((child) => `${child.spawnargs.slice(3, 5).join(' ')} exited (${child.exitCode ?? child.signalCode})`);
  fail(`${what}: not within ${ms / 1000} s${exited.length ? `; ${exited.join(', ')}` : ''}`);
}

function start(core, command, args, env = {}) {
  const child = spawn('taskset', ['-c', String(core), command, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return child;
}
const listening = (port) =>
  until(
    `port ${port}`,
    () =>
      new Promise((resolve) => {
        const socket = createServer().listen(port, '127.0.0.1', () => socket.close(() => resolve(false)));
        socket.on('error', () => resolve(true));
      }),
    10_000,
  );

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const median = (values) =>
  quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );

// ---- the peers and the project's Redis --------------------------------------------------------------
const redisPort = await freePort();
const sinkPort = await freePort();
start(1, 'redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']);
start(0, 'smtp-sink', ['-u', 'nobody', `127.0.0.1:${sinkPort}`, '1000']);
await Promise.all([listening(redisPort), listening(sinkPort)]);
const dkimFile = join(run, 'dkim.pem');
execFileSync('openssl', ['genrsa', '-out', dkimFile, '2048'], { stdio: 'ignore' });
const env = {
  REDIS_URL: `redis://127.0.0.1:${redisPort}`,
  MAILBOX_MASTER_KEY: randomBytes(32).toString('base64'),
  OUTBOUND: `smtp://127.0.0.1:${sinkPort}`,
  SERVICE_DKIM_KEY_FILE: dkimFile,
  SEND_WINDOW: 'always',
  SPACING_SECONDS: '0',
  LOG_LEVEL: 'warn',
  RATE_LIMIT_BURST: '1000000000',
  RATE_LIMIT_PER_SECOND: '1000000000',
  PLANS: JSON.stringify({ bench: { inbox_cap: 5, daily_max: 100_000_000 } }),
};
const config = loadConfig(env);
const rt = createRuntime(config);
// A new store, marked at today's format before its first space, as the service's first start marks it.
await markFreshStore(rt.redis);
// Inboxes made 40 days ago: their warm-up is over, so their quotas do not hold the queue back.
const past = createRuntime(config, { redis: rt.redis, clock: new ManualClock(Date.now() - 40 * 24 * 3600 * 1000) });

const senders = [];
for (let s = 0; s < SPACES; s++) {
  const space = await createSpace(past, { human: `humain${s}@bench.test`, plan: 'bench', verified: true });
  const access = await authenticate(past, space.api_key);
  for (let i = 0; i < INBOXES; i++) {
    const inbox = await createInbox(past, access, {
      username: `banc-${s}-${i}`,
      domain: config.commonDomain,
      shared: true,
      display_name: 'Banc',
    });
    senders.push({ spaceId: space.space_id, human: `humain${s}@bench.test`, access, inboxId: inbox.id });
  }
}

let sequence = 0;
/** One send_email (a test send to the space's human, as bench/send.sh): its message id and space. */
async function queueOne() {
  const n = sequence++;
  const sender = senders[n % senders.length];
  const { output } = await callTool(rt, sender.access, 'send_email', {
    inbox_id: sender.inboxId,
    to: sender.human,
    subject: `Point hebdomadaire ${n}`,
    text: 'Bonjour,\nvoici le point de la semaine.\n'.repeat(8),
    test: true,
  });
  if (output.status !== 'queued') fail(`send_email answered ${JSON.stringify(output).slice(0, 300)}`);
  return { id: output.message.id, spaceId: sender.spaceId };
}
async function queueMany(count) {
  const queued = [];
  const lanes = Array.from({ length: 32 }, async () => {
    while (queued.length < count) {
      const index = queued.push(null) - 1;
      queued[index] = await queueOne();
    }
  });
  await Promise.all(lanes);
  return queued;
}
const fieldsOf = (messages, ...fields) => {
  const pipeline = rt.redis.pipeline();
  for (const m of messages) pipeline.hmget(spaceKeys(m.spaceId).message(m.id), ...fields);
  return pipeline.exec().then((replies) => replies.map(([, values]) => values));
};
/** CPU seconds (user + system) a process used so far, from /proc. */
const processCpu = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
const redisCpu = async () => {
  const info = await rt.redis.info('cpu');
  return ['used_cpu_sys', 'used_cpu_user'].reduce(
    (sum, name) => sum + Number(new RegExp(`${name}:([\\d.]+)`).exec(info)[1]),
    0,
  );
};
/**
 * Until every message is sent: each one's slot (due, ms) and sent_at (ms), and the CPU the worker
 * and Redis spent a message from the first departure seen (the worker's start-up left out).
 */
async function departures(messages) {
  let rows = [];
  let from = null;
  await until(
    `${messages.length} messages sent`,
    async () => {
      rows = await fieldsOf(messages, 'status', 'slot', 'sent_at');
      const failed = rows.find(([status]) => status === 'failed' || status === 'bounced');
      if (failed) fail(`a message ended ${failed[0]}`);
      const sent = rows.filter(([status]) => status === 'sent').length;
      if (from === null && sent > 0) from = { sent, worker: processCpu(worker.pid), redis: await redisCpu() };
      return sent === messages.length;
    },
    DRAIN_DEADLINE_MS,
  );
  const count = messages.length - from.sent;
  return {
    times: rows.map(([, slot, sentAt]) => ({ due: Number(slot), sent: Date.parse(sentAt) })),
    workerUs: count > 0 ? ((processCpu(worker.pid) - from.worker) * 1e6) / count : NaN,
    redisUs: count > 0 ? (((await redisCpu()) - from.redis) * 1e6) / count : NaN,
  };
}

// ---- postfix under a scratch configuration -----------------------------------------------------------
const postfixPort = await freePort();
function startPostfix() {
  postfixDir = join(run, 'postfix');
  mkdirSync(join(postfixDir, 'queue'), { recursive: true });
  mkdirSync(join(postfixDir, 'data'));
  // Postfix's daemons run as its user: they walk to the queue and own their data directory (postfix
  // creates the queue's subdirectories itself at start).
  chmodSync(run, 0o755);
  execFileSync('chown', ['postfix:postfix', join(postfixDir, 'data')]);
  const defaults = (name) => execFileSync('postconf', ['-dh', name]).toString().trim();
  writeFileSync(
    join(postfixDir, 'main.cf'),
    [
      'compatibility_level = 3.6',
      `queue_directory = ${postfixDir}/queue`,
      `data_directory = ${postfixDir}/data`,
      `maillog_file = ${postfixDir}/maillog`,
      `maillog_file_prefixes = ${postfixDir}`,
      `meta_directory = ${defaults('meta_directory')}`,
      `daemon_directory = ${defaults('daemon_directory')}`,
      'myhostname = relay.bench.test',
      'mydestination =',
      'inet_interfaces = 127.0.0.1',
      'inet_protocols = ipv4',
      'mynetworks = 127.0.0.0/8',
      'smtpd_relay_restrictions = permit_mynetworks, reject',
      `relayhost = [127.0.0.1]:${sinkPort}`,
      'smtp_dns_support_level = disabled',
      'smtp_tls_security_level = none',
      'alias_maps =',
      'alias_database =',
      'local_recipient_maps =',
      'smtputf8_enable = no',
    ].join('\n') + '\n',
  );
  const master = readFileSync('/etc/postfix/master.cf', 'utf8')
    .replace(/^smtp\s+inet\s.*$/m, `127.0.0.1:${postfixPort} inet n - n - - smtpd`)
    .replace(/^(\S+\s+\S+\s+\S+\s+\S+\s+)y(\s)/gm, '$1n$2');
  writeFileSync(join(postfixDir, 'master.cf'), master);
  execFileSync('taskset', ['-c', '1', 'postfix', '-c', postfixDir, 'start'], { stdio: 'ignore' });
}
/** Files under one of postfix's queue directories (hashed into subdirectories). */
const postfixQueue = (dir) => {
  const walk = (path) =>
    readdirSync(path, { withFileTypes: true }).reduce(
      (n, e) => n + (e.isDirectory() ? walk(join(path, e.name)) : 1),
      0,
    );
  try {
    return walk(join(postfixDir, 'queue', dir));
  } catch {
    return 0;
  }
};
async function postfixRound(messageFile) {
  const started = performance.now();
  execFileSync(
    'taskset',
    [
      '-c',
      '0',
      'smtp-source',
      '-s',
      '5',
      '-d',
      '-m',
      String(MESSAGES),
      '-F',
      messageFile,
      '-f',
      'bounces@bench.test',
      '-t',
      'humain@bench.test',
      `inet:127.0.0.1:${postfixPort}`,
    ],
    { stdio: 'inherit' },
  );
  await until(
    'postfix queue empty',
    async () => {
      if (postfixQueue('deferred') > 0) fail('postfix deferred mail');
      return ['maildrop', 'incoming', 'active', 'hold'].every((dir) => postfixQueue(dir) === 0);
    },
    DRAIN_DEADLINE_MS,
  );
  return MESSAGES / ((performance.now() - started) / 1000);
}

// ---- rounds -----------------------------------------------------------------------------------------
const rows = [];
/** One of the signed messages, for smtp-source, and its size. */
const signedFile = join(run, 'signed.eml');
let signedBytes = 0;
let worker = null;
/** BENCH_WORKER_FLAGS: node flags for the worker, e.g. `--cpu-prof --cpu-prof-dir=DIR` (written at each round's end but the last). */
const workerFlags = process.env.BENCH_WORKER_FLAGS?.split(' ').filter(Boolean) ?? [];
const startWorker = () =>
  (worker = start(1, 'node', [...workerFlags, 'bin/mailbox.js', 'serve', '--role', 'worker'], env));
for (let round = 1; round <= ROUNDS; round++) {
  const queued = await queueMany(MESSAGES);
  // The floor's input: the worker's own OutgoingMail of each message, built before any is sent.
  const mails = await Promise.all(
    queued.map(async ({ id, spaceId }) => {
      const message = await readMessage(rt, spaceId, id);
      return outgoing(rt, spaceId, {
        message,
        inbox: await readInbox(rt, spaceId, message.inbox_id),
        attempt: 1,
        withheld: [],
      });
    }),
  );
  const mailsFile = join(run, 'mails.json');
  writeFileSync(mailsFile, JSON.stringify(mails));
  if (round === 1) {
    const signed = await composeMessage(mails[0], new Date());
    signedBytes = signed.length;
    // smtp-source appends CRLF to each line of -F's file: the message with LF line ends.
    writeFileSync(signedFile, signed.toString().replace(/\r\n/g, '\n'));
    startPostfix();
    await listening(postfixPort);
  }

  startWorker();
  const { times: sent, workerUs, redisUs } = await departures(queued);
  const first = Math.min(...sent.map((d) => d.sent));
  const last = Math.max(...sent.map((d) => d.sent));
  const project = MESSAGES / Math.max((last - first) / 1000, 0.001);
  if (round < ROUNDS) {
    worker.kill('SIGTERM');
    await new Promise((resolve) => worker.once('exit', resolve));
  }

  const floor = start(1, 'node', ['bench/floor-delivery.mjs', mailsFile, String(WORKER_JOBS)], env);
  let floorOut = '';
  floor.stdout.on('data', (chunk) => (floorOut += chunk));
  const floorCode = await new Promise((resolve) => floor.once('exit', resolve));
  const floorRate = Number(/per_s=([\d.]+)/.exec(floorOut)?.[1]);
  const floorUs = Number(/cpu_us=([\d.]+)/.exec(floorOut)?.[1]);
  if (floorCode !== 0 || !floorRate) fail(`the floor failed (exit ${floorCode}): ${floorOut}`);

  const postfix = await postfixRound(signedFile);
  rows.push({ round, project, floor: floorRate, postfix, workerUs, redisUs, floorUs });
}

// ---- due time to departure, at half the worker's median rate -----------------------------------------
const rate = Math.max(10, Math.round(median(rows.map((r) => r.project)) / 2));
const latencyMessages = [];
const t0 = performance.now();
for (let i = 0; i < rate * LATENCY_SECONDS; i++) {
  const wait = t0 + (i * 1000) / rate - performance.now();
  if (wait > 1) await sleep(wait);
  latencyMessages.push(queueOne());
}
const latency = (await departures(await Promise.all(latencyMessages))).times
  .map((d) => d.sent - d.due)
  .sort((a, b) => a - b);

console.log(
  '| round | worker msgs/s | floor msgs/s | worker vs floor | postfix relay msgs/s | worker vs postfix | worker CPU µs/msg | Redis CPU µs/msg | floor CPU µs/msg |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
  console.log(
    `| ${r.round} | ${Math.round(r.project)} | ${Math.round(r.floor)} | ${(r.project / r.floor).toFixed(2)} | ${Math.round(r.postfix)} | ` +
      `${(r.project / r.postfix).toFixed(2)} | ${Math.round(r.workerUs)} | ${Math.round(r.redisUs)} | ${r.floorUs} |`,
  );
}
console.log();
console.log(
  `${MESSAGES} messages a round (${SPACES * INBOXES} inboxes, ${signedBytes} bytes each once signed), one worker process.`,
);
console.log(
  `Due time to departure at ${rate} sends/s for ${LATENCY_SECONDS} s (${latency.length} messages): ` +
    `p50 ${quantile(latency, 0.5)} ms, p99 ${quantile(latency, 0.99)} ms, max ${latency[latency.length - 1]} ms.`,
);
rt.redis.disconnect();
process.exit(0);
