// What an idle worker role costs Redis as the number of spaces grows: SPACES spaces that declared a
// webhook and have nothing to deliver (each in the webhook sweeper's index, its event stream holding
// the webhooks group, as set_webhook leaves them), nothing queued, no campaign, and nothing due for
// history (each in the history index, due in 30 days, as createSpace leaves it: the worker role's history
// mover reads that index). Redis alone first, then with `serve --role worker` over the same window:
// commands, the busiest commands, and Redis's CPU (INFO cpu, user + system) as a share of one core.
// Built sources (npm run build); own redis-server.
// `--smoke` (@bench-smoke): 200 spaces, 3 s windows, no figure judged (CI runs it).
//   node bench/idle-workers.mjs [SPACES]     # default 100,000 spaces, 60 s windows
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { globalKeys, shardOf, spaceKeys } from '../dist/src/redis/keys.js';
import { HISTORY_SHARDS } from '../dist/actors/history-index.js';
import { WEBHOOK_GROUP, webhookShard } from '../dist/actors/webhook-index.js';
import { freePort, redisCli, startRedis, until } from './lib.mjs';

const smoke = process.argv[2] === '--smoke';
const spaces = smoke ? 200 : Number(process.argv[2] ?? 100_000);
const windowMs = smoke ? 3_000 : 60_000;
const settleMs = smoke ? 3_000 : 15_000;
const root = new URL('..', import.meta.url).pathname;
const dataDir = mkdtempSync(join(tmpdir(), 'mailbox-idle-'));

const port = await freePort();
await startRedis(port);
let worker = null;
process.on('exit', () => {
  worker?.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});
const cli = redisCli(port);

const redis = new Redis(port, '127.0.0.1');
const historyDue = Date.now() + 30 * 24 * 3600 * 1000;
for (let from = 0; from < spaces; from += 1000) {
  const batch = redis.pipeline();
  for (let i = from; i < Math.min(spaces, from + 1000); i++) {
    const spaceId = `spc_idle${String(i).padStart(8, '0')}`;
    batch.sadd(globalKeys.webhookSpaces('wh', webhookShard(spaceId)), spaceId);
    batch.xgroup('CREATE', spaceKeys(spaceId).events, WEBHOOK_GROUP, '$', 'MKSTREAM');
    batch.zadd(globalKeys.historySpaces(shardOf(spaceId, HISTORY_SHARDS)), historyDue, spaceId);
  }
  await batch.exec();
}
redis.disconnect();

const cpuSeconds = () => {
  const info = cli('INFO', 'cpu');
  return Number(/used_cpu_user:([\d.]+)/.exec(info)[1]) + Number(/used_cpu_sys:([\d.]+)/.exec(info)[1]);
};
async function observe() {
  cli('CONFIG', 'RESETSTAT');
  const cpu = cpuSeconds();
  await new Promise((resolve) => setTimeout(resolve, windowMs));
  const used = cpuSeconds() - cpu;
  const calls = [...cli('INFO', 'commandstats').matchAll(/cmdstat_([^:]+):calls=(\d+)/g)]
    .map(([, name, count]) => ({ name, count: Number(count) }))
    .filter(({ name }) => name !== 'config|resetstat' && name !== 'info');
  const total = calls.reduce((sum, { count }) => sum + count, 0);
  const top = calls
    .sort((a, b) => b.count - a.count)
    .slice(0, 4)
    .map(({ name, count }) => `${name} ${count}`)
    .join(', ');
  return { total, top, core: (100 * used) / (windowMs / 1000) };
}

const alone = await observe();
worker = spawn(process.execPath, [join(root, 'bin/mailbox.js'), 'serve', '--role', 'worker'], {
  env: {
    ...process.env,
    REDIS_URL: `redis://127.0.0.1:${port}`,
    MAILBOX_DATA_DIR: dataDir,
    MAILBOX_MASTER_KEY: randomBytes(32).toString('base64'),
    LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
// Started, and past its first passes (the webhook sweep among them, which a window may or may not hold).
await until('the worker role', async () => /cmdstat_evalsha/.test(cli('INFO', 'commandstats')), 30_000);
await new Promise((resolve) => setTimeout(resolve, settleMs));
const withWorker = await observe();

console.log(`${spaces} spaces with a webhook and nothing due (webhooks, history), ${windowMs / 1000} s windows:\n`);
console.log('| Redis | commands | a second | CPU, % of a core | busiest |');
console.log('|---|---:|---:|---:|---|');
for (const [name, row] of [
  ['alone', alone],
  ['with an idle worker role', withWorker],
])
  console.log(
    `| ${name} | ${row.total} | ${(row.total / (windowMs / 1000)).toFixed(1)} | ${row.core.toFixed(2)} | ${row.top} |`,
  );
process.exit(0);
