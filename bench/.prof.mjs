// In-process CPU of get_thread / list_threads (not committed).
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { ManualClock } from '../dist/src/clock.js';
import { loadConfig } from '../dist/src/config.js';
import { createRuntime } from '../dist/src/runtime.js';
import { callTool } from '../dist/src/tools/dispatch.js';
import { authenticate, createSpace } from '../dist/actors/space.js';
import { createInbox } from '../dist/actors/inbox.js';
import { REDIS_ENCODING_ARGS } from '../dist/src/redis/local.js';
const port = 6500 + Math.floor(Math.random() * 100);
const redis = spawn('taskset', ['-c', '0', 'redis-server', '--port', String(port), '--save', '', ...REDIS_ENCODING_ARGS], { stdio: 'ignore' });
await new Promise((r) => setTimeout(r, 400));
const config = loadConfig({ REDIS_URL: `redis://127.0.0.1:${port}`, MAILBOX_DATA_DIR: mkdtempSync(join(tmpdir(), 'p-')), MAILBOX_MASTER_KEY: randomBytes(32).toString('base64'), LOG_LEVEL: 'warn', SEND_WINDOW: 'always', SPACING_SECONDS: '0', WEBHOOKS_ENABLED: '0', PLANS: JSON.stringify({ bench: { inbox_cap: 5, daily_max: 10_000_000 } }) });
const clock = new ManualClock(Date.now() - 40 * 24 * 3600 * 1000);
const rt = createRuntime(config, { clock });
const human = 'humain@bench.test';
const space = await createSpace(rt, { human, plan: 'bench', verified: true });
const access = await authenticate(rt, space.api_key);
const inbox = await createInbox(rt, access, { username: 'bench', domain: config.commonDomain, shared: true, display_name: 'Banc' });
const text = 'Bonjour,\nvoici le point de la semaine.\n'.repeat(8);
clock.advance(30 * 24 * 3600 * 1000);
let threadId = null;
for (let i = 0; i < 60; i++) { const { output } = await callTool(rt, access, 'send_email', { inbox_id: inbox.id, to: human, subject: `Point hebdomadaire ${i}`, text, test: true }); threadId ??= output.thread.id; }
for (let i = 1; i < 20; i++) { clock.advance(9 * 3600 * 1000); await callTool(rt, access, 'reply_to_thread', { thread_id: threadId, text: `${text}Suite ${i}.\n` }); }
const N = Number(process.argv[2] ?? 3000);
for (const [tool, body] of [['get_thread', { thread_id: threadId }], ['list_threads', { limit: 50 }]]) {
  for (let round = 0; round < 3; round++) {
    let k = 0; const c0 = process.cpuUsage();
    await Promise.all(Array.from({ length: 8 }, async () => { while (k++ < N) { const { output } = await callTool(rt, access, tool, body); JSON.stringify(output); } }));
    const c = process.cpuUsage(c0);
    console.log(tool, ((c.user + c.system) / N).toFixed(0), 'µs a call (tool + stringify)');
  }
}
redis.kill(); process.exit(0);
