/**
 * A send reads facts shared across spaces under other tags (the recipient's dead-address shard, its
 * address claim): when their node cannot answer, the send is decided without them, safely
 * (docs/operations.md, "Redis Cluster failover"). A key made unreadable stands for the failing node.
 * The recipient taken as alive is checked again at departure and never sent to once dead.
 */
import t from 'tap';
import { deadAddressKey, markDeadAddress } from '../../actors/dead-addresses.js';
import { ManualClock } from '../../src/clock.js';
import { transportFor } from '../../src/delivery/transports.js';
import { globalKeys } from '../../src/redis/keys.js';
import { sweep } from '../../src/workers/send.js';
import { MASTER_KEY } from '../helpers/domains.js';
import { recipient, send, sender } from '../helpers/outbound.js';
import { clusterMode } from '../helpers/redis.js';
import { startService } from '../helpers/service.js';
import { startPeer, type Received } from '../helpers/smtp-peer.js';

const clock = new ManualClock(Date.now());
const peer = await startPeer({ starttls: false });
t.teardown(() => peer.close());
const svc = await startService({
  clock,
  env: {
    MAILBOX_MASTER_KEY: MASTER_KEY,
    OUTBOUND: `smtp://127.0.0.1:${peer.port}`,
    SEND_WINDOW: 'always',
    SPACING_SECONDS: '0',
  },
});
const nextWithin = (ms: number): Promise<Received | null> =>
  Promise.race([peer.next(), new Promise<null>((resolve) => setTimeout(() => resolve(null), ms).unref())]);

// The keys made unreadable are shared by every file on the cluster.
const own = { skip: clusterMode() ? "makes shared keys unreadable, which the cluster's other files read" : false };

/** A shared key holding a list: every read of it as its own type fails, as on a node that does not answer. */
async function unreadable(key: string): Promise<() => Promise<void>> {
  const kept = await svc.rt.redis.dumpBuffer(key);
  await svc.rt.redis.del(key);
  await svc.rt.redis.rpush(key, 'unreadable');
  return async () => {
    await svc.rt.redis.del(key);
    if (kept) await svc.rt.redis.restore(key, 0, kept);
  };
}

t.test(
  'a dead-address shard that cannot be read: the send is queued, the departure reads it again and never sends to a dead address',
  own,
  async (t) => {
    const s = await sender(svc);
    const to = recipient('mort');
    const restore = await unreadable(deadAddressKey(to));
    const res = await send(svc, s, { to });
    t.equal(res.status, 200, 'queued without the shard');
    t.equal(res.body.status, 'queued');
    await sweep(svc.rt, transportFor(svc.rt), [s.spaceId]);
    t.equal(await nextWithin(1000), null, 'not sent while the check cannot be made');
    await restore();
    await markDeadAddress(svc.rt, to, {
      status_code: 'recipient_unknown',
      space_id: 'spc_other',
      message_id: 'msg_other',
      at: new Date().toISOString(),
    });
    clock.set(clock.now() + svc.rt.config.deliveryLeaseMs + 1);
    await sweep(svc.rt, transportFor(svc.rt), [s.spaceId]);
    t.equal(await nextWithin(1000), null, 'never sent: dead meanwhile');
    t.equal((await svc.call(s.apiKey, 'get_message', { message_id: res.body.message.id })).body.status, 'rejected');
  },
);

t.test(
  "an address claim that cannot be read: decided without it outside the service's and the space's domains, refused as Redis away at them",
  own,
  async (t) => {
    const s = await sender(svc);
    const outside = recipient('client');
    const restoreOutside = await unreadable(globalKeys.address(outside));
    const res = await send(svc, s, { to: outside });
    t.equal(res.status, 200, 'an outside address is no inbox of the space: sent without its claim');
    await restoreOutside();

    const mine = `ventes@${s.domain}`;
    const restoreMine = await unreadable(globalKeys.address(mine));
    const refused = await send(svc, s, { to: mine, test: true });
    t.equal(refused.status, 503, "one of the space's own addresses cannot be told apart: tried again later");
    t.equal(refused.body.error.code, 'service_unavailable');
    await restoreMine();
    t.equal((await send(svc, s, { to: mine, test: true })).status, 200, 'and passes once the claim answers');
  },
);
