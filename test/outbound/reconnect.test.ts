/**
 * A wake-up lost with a Redis that went away is noticed by the worker that lost its connection: once
 * it is back, the worker visits the spaces due by now at once, not at its next sweep (docs/operations.md,
 * "Redis Cluster failover"). The file's own append-only redis-server is stopped and started again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { ManualClock } from '../../src/clock.js';
import { startLocalRedis, type LocalRedis } from '../../src/redis/local.js';
import { sendQueue } from '../../src/redis/queues.js';
import { startSendWorker } from '../../src/workers/send.js';
import { MASTER_KEY } from '../helpers/domains.js';
import { send, sender } from '../helpers/outbound.js';
import { startService } from '../helpers/service.js';
import { startPeer } from '../helpers/smtp-peer.js';

const dir = mkdtempSync(join(tmpdir(), 'mbx-reconnect-'));
let redis: LocalRedis = await startLocalRedis(dir, { persist: true });
t.teardown(async () => {
  await redis.stop();
  rmSync(dir, { recursive: true, force: true });
});
const peer = await startPeer({ starttls: false });
t.teardown(() => peer.close());
const clock = new ManualClock(Date.now());
const svc = await startService({
  clock,
  redis: { url: redis.url },
  env: {
    MAILBOX_MASTER_KEY: MASTER_KEY,
    OUTBOUND: `smtp://127.0.0.1:${peer.port}`,
    SEND_WINDOW: 'always',
    SPACING_SECONDS: '0',
  },
});

t.test('a message whose wake-up was lost leaves once Redis is back, without waiting for the sweep', async (t) => {
  const s = await sender(svc);
  // Queued for a minute from now, so the worker started now has nothing to take yet.
  const res = await send(svc, s, { send_after: new Date(clock.now() + 60_000).toISOString() });
  t.equal(res.status, 200);
  const worker = startSendWorker(svc.rt, { sweepMs: 3600_000 });
  t.teardown(() => worker.close());
  // Its wake-up lost with the Redis that goes away.
  await sendQueue(svc.rt, s.spaceId).remove(`wake-${s.spaceId}-${s.inboxId}-${Date.parse(res.body.estimated_send_at)}`);
  await redis.stop();
  clock.set(clock.now() + 60_000);
  redis = await startLocalRedis(dir, { persist: true });
  const mail = await Promise.race([
    peer.next(),
    new Promise<null>((resolve) => setTimeout(() => resolve(null), 15_000).unref()),
  ]);
  t.match(
    mail?.raw.toString() ?? '',
    `Message-ID: <${res.body.message.id}@`,
    'sent after the reconnection, the sweep being an hour away',
  );
});
