/**
 * An idle webhook worker does not poll: it waits for a space to be announced as due (wakeSpace's
 * PUBLISH), for the shards' next due time (a retry), or for its long pause. Here the pause is ten
 * minutes, so every delivery below comes from an announcement or a due time, never from the pause.
 */
import { randomBytes } from 'node:crypto';
import t from 'tap';
import { resumeInbox, suspendInbox } from '../../actors/inbox.js';
import { startWebhookWorker } from '../../src/webhooks/worker.js';
import { startService } from '../helpers/service.js';
import { startReceiver, type Received } from '../helpers/webhooks.js';

const receiver = await startReceiver();
const svc = await startService({
  env: {
    MAILBOX_MASTER_KEY: randomBytes(32).toString('base64'),
    WEBHOOK_ALLOW_LOOPBACK: '1',
    WEBHOOK_CA_FILE: receiver.caFile,
    WEBHOOK_RETRY_SCHEDULE: '300ms',
    WEBHOOK_TIMEOUT_MS: '1000',
  },
});
svc.dns.a('hook.test', '127.0.0.1');
const worker = startWebhookWorker(svc.rt, { idleMs: 600_000 });
t.teardown(async () => {
  await worker.close();
  await receiver.close();
});

const spaceOf = (r: Received): string => JSON.parse(r.body).account.space_id;
const reasonOf = (r: Received): string => JSON.parse(r.body).data.reason;

t.test('a declaration, then events after a quiet spell, reach an idle worker at once', async (t) => {
  const { apiKey, spaceId } = await svc.space({ plan: 'pro' });
  const box = await svc.call(apiKey, 'create_inbox', {
    username: `boite-${randomBytes(3).toString('hex')}`,
    display_name: 'Boîte',
  });
  const hook = await svc.call(apiKey, 'set_webhook', { url: `https://hook.test:${receiver.port}/recevoir` });
  t.equal(hook.status, 200);
  await receiver.until(1, (r) => spaceOf(r) === spaceId && r.type === 'webhook.test');
  // The worker is idle again: its next look would be ten minutes away.
  await new Promise((resolve) => setTimeout(resolve, 300));
  await suspendInbox(svc.rt, spaceId, box.body.id, 'après le calme');
  await resumeInbox(svc.rt, spaceId, box.body.id);
  const got = await receiver.until(1, (r) => spaceOf(r) === spaceId && r.type.startsWith('mail.'));
  t.equal(reasonOf(got[0]!), 'après le calme');
});

t.test('a retry goes at its time, the shards telling the idle worker when', async (t) => {
  const { apiKey, spaceId } = await svc.space({ plan: 'pro' });
  const box = await svc.call(apiKey, 'create_inbox', {
    username: `boite-${randomBytes(3).toString('hex')}`,
    display_name: 'Boîte',
  });
  await svc.call(apiKey, 'set_webhook', { url: `https://hook.test:${receiver.port}/recevoir` });
  await receiver.until(1, (r) => spaceOf(r) === spaceId && r.type === 'webhook.test');
  receiver.answer = (r, nth) => ({ status: spaceOf(r) === spaceId && nth === 1 ? 500 : 200 });
  t.teardown(() => void (receiver.answer = () => ({ status: 200 })));
  await suspendInbox(svc.rt, spaceId, box.body.id, 'refusé une fois');
  const got = await receiver.until(2, (r) => spaceOf(r) === spaceId && r.type.startsWith('mail.'));
  t.same(got.map(reasonOf), ['refusé une fois', 'refusé une fois'], 'refused, then delivered again');
});
