/**
 * The per-key request budget: a token bucket in Redis, taken by the authentication script, so two
 * front ends (and a child process) sharing one Redis share one budget; 429 with Retry-After.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { ManualClock } from '../../src/clock.js';
import { testRedisTarget } from '../helpers/redis.js';
import { startService } from '../helpers/service.js';
import { CHILD_EXEC_ARGV } from '../helpers/child.js';

const clock = new ManualClock(Date.parse('2026-11-23T08:00:00.000Z'));
const env = { RATE_LIMIT_BURST: '10', RATE_LIMIT_PER_SECOND: '2' };
const a = await startService({ clock, env });
const b = await startService({ clock, env });

t.test('two front ends share one budget; the refusal says when to come back', async (t) => {
  const { apiKey } = await a.space();
  const statuses: number[] = [];
  for (let i = 0; i < 10; i++) statuses.push((await (i % 2 ? a : b).call(apiKey, 'get_settings')).status);
  t.same(statuses, Array(10).fill(200), 'the burst passes');
  const refused = await a.call(apiKey, 'get_settings');
  t.equal(refused.status, 429);
  t.equal(refused.body.error.code, 'rate_limited');
  t.same(refused.body.error.hint, { retry_after_seconds: 1 });
  t.equal(refused.headers.get('retry-after'), '1');
  t.equal((await b.call(apiKey, 'get_settings')).status, 429, 'the other front end sees the same budget');
  // Checked at once: the bucket's expiry runs on Redis's clock, not the injected one.
  clock.advance(1000);
  t.equal((await b.call(apiKey, 'get_settings')).status, 200, 'two tokens a second come back');
  t.equal((await a.call(apiKey, 'get_settings')).status, 200);
  t.equal((await a.call(apiKey, 'get_settings')).status, 429);
  const client = await a.mcp((await a.space()).apiKey);
  t.ok(client, 'another key has its own budget');
});

t.test('RateLimit-Policy and RateLimit on every authenticated answer, the refusal included', async (t) => {
  const { apiKey } = await a.space();
  const policies = new Set<string | null>();
  const states: (string | null)[] = [];
  for (let i = 0; i < 11; i++) {
    const res = await a.call(apiKey, 'get_settings');
    policies.add(res.headers.get('ratelimit-policy'));
    states.push(res.headers.get('ratelimit'));
  }
  t.same([...policies], ['"default";q=10;w=5'], 'ten in a burst, refilled in 5 s');
  // Each request takes a token; the bucket is full again 0.5 s per missing token later.
  t.same(states, [
    ...[9, 8, 7, 6, 5, 4, 3, 2, 1, 0].map((r) => `"default";r=${r};t=${Math.ceil((10 - r) / 2)}`),
    '"default";r=0;t=1',
  ]);
  const unknown = await a.call(apiKey, 'send_pigeon');
  t.equal(unknown.headers.get('ratelimit'), '"default";r=0;t=1', 'a refusal after authentication keeps the state');
  t.equal((await a.call(null, 'get_settings')).headers.get('ratelimit'), null, 'no key, no budget to show');
  t.equal((await fetch(`${a.url}/healthz`)).headers.get('ratelimit-policy'), null);
});

t.test('MCP calls take from the same budget', async (t) => {
  const { apiKey } = await a.space();
  const client = await b.mcp(apiKey);
  let refusal: unknown = null;
  for (let i = 0; i < 12 && !refusal; i++) {
    await client.callTool({ name: 'get_settings', arguments: {} }).catch((error: unknown) => (refusal = error));
  }
  t.match(String(refusal), /429|rate_limited|Trop de requêtes/);
  t.equal((await a.call(apiKey, 'get_settings')).status, 429, 'and HTTP sees it spent');
});

t.test('a front end in a child process shares the budget too', async (t) => {
  const { apiKey } = await a.space();
  const target = await testRedisTarget();
  const script = fileURLToPath(new URL('../helpers/auth-child.ts', import.meta.url));
  const child = spawn(process.execPath, [...CHILD_EXEC_ARGV, script], {
    env: {
      ...process.env,
      ...env,
      MBX_TEST_NOW: String(clock.now()),
      MBX_TEST_REDIS: JSON.stringify(target),
      MBX_TEST_KEY: apiKey,
      MBX_TEST_CALLS: '10',
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  t.equal((await lines.next()).value, 'ready');
  // Spent once the child is up, not across its start-up (the bucket's expiry runs on Redis's clock).
  for (let i = 0; i < 4; i++) t.equal((await a.call(apiKey, 'get_settings')).status, 200);
  child.stdin.write('go\n');
  t.equal((await lines.next()).value, '6', 'the child gets what is left of the burst, no more');
  t.equal((await a.call(apiKey, 'get_settings')).status, 429);
  await exited;
});
