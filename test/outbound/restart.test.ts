/**
 * A restarted delivery worker takes due work at once (delivery had resumed only with the
 * first sweep, 30 s after a restart). A worker took a message and died; its lease expired; a new
 * worker, whose sweep interval is an hour, sends it as soon as it starts.
 */
import t from 'tap';
import { takeDue } from '../../actors/delivery.js';
import { ManualClock } from '../../src/clock.js';
import { transportFor } from '../../src/delivery/transports.js';
import { sendQueue } from '../../src/redis/queues.js';
import { startSendWorker, sweep } from '../../src/workers/send.js';
import { MASTER_KEY } from '../helpers/domains.js';
import { send, sender } from '../helpers/outbound.js';
import { clusterMode } from '../helpers/redis.js';
import { startService } from '../helpers/service.js';
import { startPeer, type Received } from '../helpers/smtp-peer.js';

const clock = new ManualClock(Date.now());
const peer = await startPeer({ starttls: false });
const svc = await startService({
  clock,
  env: {
    MAILBOX_MASTER_KEY: MASTER_KEY,
    OUTBOUND: `smtp://127.0.0.1:${peer.port}`,
    SEND_WINDOW: 'always',
    SPACING_SECONDS: '0',
  },
});

/** The peer's next message, or null when none came within `ms` (a bound on the wait, not a sleep). */
const nextWithin = (ms: number): Promise<Received | null> =>
  Promise.race([peer.next(), new Promise<null>((resolve) => setTimeout(() => resolve(null), ms).unref())]);

const shared = {
  skip: clusterMode()
    ? 'the worker serves every space and wake-up job of its Redis, which test files share on the cluster'
    : false,
};

t.test('a message due when a worker starts leaves without waiting for the sweep interval', shared, async (t) => {
  const s = await sender(svc);
  const res = await send(svc, s);
  t.equal(res.status, 200);
  t.ok('departure' in (await takeDue(svc.rt, s.spaceId, s.inboxId)), 'a first worker took it, then died');
  clock.set(clock.now() + svc.rt.config.deliveryLeaseMs + 1);

  const worker = startSendWorker(svc.rt, { sweepMs: 3600_000 });
  const mail = await nextWithin(5_000);
  await worker.close();
  t.ok(mail, 'sent at start');
  t.match(mail?.raw.toString() ?? '', `Message-ID: <${res.body.message.id}@`, 'the message left');
  t.equal((await svc.call(s.apiKey, 'get_message', { message_id: res.body.message.id })).body.status, 'sent');
});

t.test(
  "a sweep starts an inbox's broken chain of wake-ups again (a wake that failed while Redis was away)",
  shared,
  async (t) => {
    const s = await sender(svc);
    const first = await send(svc, s);
    const later = clock.now() + 3600_000;
    const second = await send(svc, s, { send_after: new Date(later).toISOString() });
    const slotOf = (res: typeof first) => Date.parse(res.body.estimated_send_at);
    t.equal(slotOf(second), later, 'the second waits for its send_after');
    // The first one's wake-up is gone, as when its job failed: nothing would deliver the inbox again.
    await sendQueue(svc.rt, s.spaceId).remove(`wake-${s.spaceId}-${s.inboxId}-${slotOf(first)}`);

    await sweep(svc.rt, transportFor(svc.rt), [s.spaceId]);
    t.ok(await nextWithin(5_000), 'the sweep sent the due message');
    const wake = await sendQueue(svc.rt, s.spaceId).getJob(`wake-${s.spaceId}-${s.inboxId}-${later}`);
    t.ok(wake, "the inbox's next departure has its wake-up again");
  },
);

t.test(
  "the queues keep a connection of their own: the runtime's carries none of BullMQ's scripts, so its pipelines stay cheap",
  async (t) => {
    const s = await sender(svc);
    t.equal((await send(svc, s)).status, 200, 'a send woke its inbox through the queue');
    t.ok((await sendQueue(svc.rt, s.spaceId).count()) > 0, 'its wake-up waits in the queue');
    // ioredis copies every command defined on a connection onto each of its pipeline objects (BENCHMARKS.md, "Sending").
    t.same(Object.keys((svc.rt.redis as unknown as { scriptsSet: object }).scriptsSet), []);
  },
);
