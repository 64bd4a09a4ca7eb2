// The inbound kill drills (bench/drills.sh runs them after the send drills): one redis-server
// (append-only, appendfsync always, on a scratch dir) and one `serve --role smtp`. Each drill sends N
// messages to one inbox over CONCURRENCY SMTP clients, each message with its own Message-ID and sent
// again when it failed or went unanswered, as a sending server does; once a third are acknowledged (the
// 250 after DATA) it kills the SMTP process, or Redis, with SIGKILL and restarts it. Then it counts:
// every acknowledged message must be in its thread, once, with its raw source readable in the blob store
// (docs/operations.md, "Kill drills"). Loopback only; everything it starts, it stops. `--smoke`: a few
// messages per drill, for CI. Exit 1 when an acknowledged message is lost or stored twice.
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import nodemailer from 'nodemailer';
import { readMessage, readThreadIds } from '../dist/actors/stored-records.js';
import { openBlobStore } from '../dist/src/blobs/index.js';
import { loadConfig } from '../dist/src/config.js';
import { spaceKeys } from '../dist/src/redis/keys.js';
import { createRuntime } from '../dist/src/runtime.js';
import { freePort, processGroup, until } from './lib.mjs';

const smoke = process.argv.includes('--smoke');
const run = process.env.DRILLS_RUN;
if (!run) throw new Error('DRILLS_RUN (a scratch directory) must be set: run bench/drills.sh');
const MESSAGES = smoke ? 24 : 200;
const CONCURRENCY = 8;
const SEND_DEADLINE_MS = 30_000;
const DRILLS = [
  { name: 'SMTP process', victim: 'smtp' },
  { name: 'redis, appendfsync always', victim: 'redis' },
];
const RECIPIENT = 'exercice@bench.test';

const { procs, start, stop } = processGroup(run);
async function stopAll() {
  await stop(procs.get('smtp'), 'SIGTERM');
  await stop(procs.get('redis'), 'SIGTERM');
  procs.clear();
}

/** A client of its own for each call: a connection the kill cut is not reused. */
async function smtpCall(port, action) {
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port,
    ignoreTLS: true,
    connectionTimeout: 5000,
    socketTimeout: 10_000,
  });
  try {
    return await action(transport);
  } finally {
    transport.close();
  }
}

async function setup() {
  const [redisPort, smtpPort] = await Promise.all([freePort(), freePort()]);
  const redis = new Redis({ port: redisPort, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: null });
  // Refused connections while Redis is down are the drill; each command waits for it to come back.
  redis.on('error', () => {});
  const env = {
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    MAILBOX_DATA_DIR: run,
    COMMON_DOMAIN: RECIPIENT.split('@')[1],
    SMTP_PORT: String(smtpPort),
    SMTP_HOST: '127.0.0.1',
  };
  const restart = {
    redis: async () => {
      start('redis', 'redis-server', [
        ...['--port', String(redisPort), '--bind', '127.0.0.1', '--dir', run, '--save', ''],
        ...['--appendonly', 'yes', '--appendfsync', 'always'],
      ]);
      await until('redis-server', async () => (await redis.ping()) === 'PONG');
    },
    smtp: async () => {
      start('smtp', process.execPath, ['bin/mailbox.js', 'serve', '--role', 'smtp'], env);
      await until('the SMTP process', () => smtpCall(smtpPort, (transport) => transport.verify()));
    },
  };
  await restart.redis();
  // The first process writes the storage format into the empty Redis, then the seed writes the space.
  await restart.smtp();
  const seed = spawn(process.execPath, ['bench/seed-inbound.mjs', RECIPIENT.split('@')[0]], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let printed = '';
  seed.stdout.on('data', (chunk) => (printed += chunk));
  await new Promise((resolve) => seed.on('exit', resolve));
  const spaceId = /\{(spc_[^}]+)\}/.exec(printed)?.[1];
  if (!spaceId) throw new Error(`the seed printed no space: ${printed}`);
  // The service's own readers count what is stored, after each drill.
  const config = loadConfig({ ...process.env, ...env, LOG_LEVEL: 'error' });
  const rt = createRuntime(config);
  return { redis, rt, blobs: openBlobStore(config), smtpPort, restart, spaceId, keys: spaceKeys(spaceId) };
}

/** One message until a 250, sent again after each failure; whether it was acknowledged. */
async function deliverOne(ctx, mail, stats) {
  const end = Date.now() + SEND_DEADLINE_MS;
  for (;;) {
    try {
      await smtpCall(ctx.smtpPort, (transport) => transport.sendMail(mail));
      return true;
    } catch {
      stats.retries++;
      if (Date.now() > end) return false;
      await sleep(200);
    }
  }
}

/** Each received message's Message-ID header, with its raw source's reference as many times as it is stored. */
async function storedMessages({ rt, keys, spaceId }) {
  const stored = new Map();
  for (const threadId of await rt.redis.zrange(keys.threads, 0, -1))
    for (const messageId of await readThreadIds(
      rt,
      spaceId,
      threadId,
      (pipeline, key) => pipeline.zrange(key, 0, -1),
      (ids) => ids,
    )) {
      const message = await readMessage(rt, spaceId, messageId);
      if (message?.direction !== 'inbound') continue;
      const sources = stored.get(message.message_id_header) ?? [];
      stored.set(message.message_id_header, [...sources, message.source || null]);
    }
  return stored;
}

async function drill(ctx, { name, victim }) {
  const acked = [];
  const stats = { retries: 0 };
  const fault = until('the fault', async () => acked.length >= Math.floor(MESSAGES / 3), 60_000).then(async () => {
    await stop(procs.get(victim), 'SIGKILL');
    await sleep(1000);
    await ctx.restart[victim]();
  });
  fault.catch(() => {}); // awaited after the load: a failure then ends the drills, not the process before
  let next = 0;
  const client = async () => {
    while (next < MESSAGES) {
      const i = next++;
      const mail = {
        from: 'expediteur@client-exercice.test',
        to: RECIPIENT,
        subject: `${name}: exercice ${i}`,
        messageId: `<${victim}-${i}@client-exercice.test>`,
        text: `Message ${i} de l'exercice ${name}.`,
      };
      if (await deliverOne(ctx, mail, stats)) acked.push(mail.messageId);
    }
  };
  const began = Date.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, client));
  await fault;
  const stored = await storedMessages(ctx);
  let readable = 0;
  for (const id of acked) {
    const ref = stored.get(id)?.[0];
    if (ref && (await ctx.blobs.getSource(ctx.spaceId, ref))) readable++;
  }
  return {
    name,
    acknowledged: acked.length,
    stored: acked.filter((id) => stored.has(id)).length,
    readable,
    twice: acked.filter((id) => (stored.get(id)?.length ?? 0) > 1).length,
    unacknowledged: MESSAGES - acked.length,
    retries: stats.retries,
    loadSeconds: (Date.now() - began) / 1000,
  };
}

const stopped = async (code) => {
  await stopAll();
  process.exit(code);
};
process.on('SIGINT', () => stopped(130));
process.on('SIGTERM', () => stopped(143));
const rows = [];
try {
  const ctx = await setup();
  for (const spec of DRILLS) {
    rows.push(await drill(ctx, spec));
    process.stderr.write(`inbound drill done: ${spec.name}\n`);
  }
  ctx.redis.disconnect();
  ctx.rt.redis.disconnect();
  await stopAll();
} catch (error) {
  process.stderr.write(`inbound drill failed: ${error.stack}\n`);
  await stopped(2);
}

console.log(
  `${MESSAGES} messages per drill to one inbox over ${CONCURRENCY} SMTP clients, each sent again until a 250; the victim killed with SIGKILL once a third were acknowledged, restarted after 1 s.`,
);
console.log();
console.log('| drill | acknowledged | stored | raw source readable | lost | stored twice | retried sends | load s |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows)
  console.log(
    `| inbound, ${r.name} | ${r.acknowledged} | ${r.stored} | ${r.readable} | ${r.acknowledged - r.stored} | ${r.twice} | ${r.retries} | ${r.loadSeconds.toFixed(1)} |`,
  );
const failed = rows.filter(
  (r) => r.stored !== r.acknowledged || r.readable !== r.acknowledged || r.twice || r.unacknowledged,
);
process.exit(failed.length ? 1 : 0);
