/**
 * Redis away: requests answer 503 service_unavailable with Retry-After within a bound, over HTTP and
 * MCP, and the service resumes by itself when Redis is back. The file's own throwaway redis-server
 * (append-only, so the space outlives the restart) is stopped and started again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import type { Logger } from '../../src/log.js';
import { startLocalRedis, type LocalRedis } from '../../src/redis/local.js';
import { startWebhookWorker } from '../../src/webhooks/worker.js';
import { startService } from '../helpers/service.js';

const dir = mkdtempSync(join(tmpdir(), 'mbx-outage-'));
let redis: LocalRedis = await startLocalRedis(dir, { persist: true });
t.teardown(async () => {
  await redis.stop();
  rmSync(dir, { recursive: true, force: true });
});
const svc = await startService({ redis: { url: redis.url } });
const { apiKey } = await svc.space();
const BOUND_MS = 3000;

/** The service's log lines from now on, by level (the runtime's logger, wrapped). */
function captureLog(log: Logger): {
  lines: { level: string; msg: string; fields: Record<string, unknown> }[];
  stop(): void;
} {
  const lines: { level: string; msg: string; fields: Record<string, unknown> }[] = [];
  const levels = ['debug', 'info', 'warn', 'error'] as const;
  const kept = levels.map((level) => log[level]);
  for (const level of levels) log[level] = (msg, fields = {}) => void lines.push({ level, msg, fields });
  return { lines, stop: () => levels.forEach((level, i) => (log[level] = kept[i]!)) };
}

const timed = async <T>(call: () => Promise<T>): Promise<{ result: T; ms: number }> => {
  const started = performance.now();
  const result = await call();
  return { result, ms: performance.now() - started };
};

t.test('Redis stopped: 503 service_unavailable with Retry-After, within the bound, again and again', async (t) => {
  t.equal((await svc.call(apiKey, 'get_settings')).status, 200);
  const client = await svc.mcp(apiKey);
  // No space of this Redis has a webhook: the webhook worker must not warn about the outage.
  const webhooks = startWebhookWorker(svc.rt);
  const log = captureLog(svc.rt.log);
  t.teardown(() => log.stop());
  await redis.stop();
  for (let attempt = 0; attempt < 3; attempt++) {
    // Real time on purpose: the bug was ioredis's reconnection backoff growing with the outage (20 s per request).
    if (attempt === 2) await new Promise((r) => setTimeout(r, 4000));
    const { result: res, ms } = await timed(() =>
      svc.call(apiKey, 'send_email', {
        inbox_id: 'inb_00000000000000000000',
        to: 'a@exemple.fr',
        subject: 'Bonjour',
        text: 'Bonjour',
        idempotency_key: 'k1',
      }),
    );
    t.equal(res.status, 503, `attempt ${attempt}`);
    t.equal(res.body.error.code, 'service_unavailable');
    t.same(res.body.error.hint, { retry_after_seconds: 2 });
    t.match(res.body.error.message, /idempotency_key/);
    t.equal(res.headers.get('retry-after'), '2');
    t.ok(ms < BOUND_MS, `answered in ${Math.round(ms)} ms`);
  }
  // Over MCP every request authenticates first, so the same 503 comes back on the HTTP layer.
  const { result: error, ms } = await timed(() =>
    client.callTool({ name: 'get_settings', arguments: {} }).then(
      () => null,
      (e: Error & { code?: number }) => e,
    ),
  );
  t.equal(error?.code, 503, 'the SDK client sees the HTTP status');
  t.match(error?.message, /service_unavailable/);
  t.ok(ms < BOUND_MS, `MCP answered in ${Math.round(ms)} ms`);
  const health = await fetch(`${svc.url}/healthz`);
  t.equal(health.status, 503);

  const answered = log.lines.filter(
    (line) => line.msg === 'request refused for a server-side cause' && line.fields.url === '/v1/send_email',
  );
  t.equal(answered.length, 3, 'every 503 answered is logged');
  t.match(answered[0]?.fields, { status: 503, code: 'service_unavailable', request_id: String });
  // The worker's claims failed meanwhile (at least once: its loop had a second to try).
  while (!log.lines.some((line) => line.msg === 'webhook claim failed'))
    await new Promise((resolve) => setTimeout(resolve, 50));
  t.same(
    log.lines.filter((line) => line.msg.startsWith('webhook') && line.level !== 'debug'),
    [],
    'no webhook warning without a webhook',
  );
  await webhooks.close();
  log.stop();
});

t.test('Redis back: the service resumes by itself, over HTTP and MCP', async (t) => {
  redis = await startLocalRedis(dir, { persist: true });
  const { ms } = await timed(async () => {
    for (
      let res = await svc.call(apiKey, 'get_settings');
      res.status !== 200;
      res = await svc.call(apiKey, 'get_settings')
    ) {
      t.equal(res.status, 503, 'until then, still the same refusal');
    }
  });
  t.ok(ms < BOUND_MS, `resumed ${Math.round(ms)} ms after Redis came back`);
  const client = await svc.mcp(apiKey);
  const res = await client.callTool({ name: 'get_settings', arguments: {} });
  t.notOk(res.isError);
});
