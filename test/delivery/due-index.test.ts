/**
 * The due index (actors/due-index.ts): the delivery sweep finds the spaces with queued mail through
 * sharded index keys, never by scanning the keyspace, and drops a space from it only when nothing of it
 * waits and nothing was queued during the visit.
 */
import t from 'tap';
import { DUE_SHARDS, dueSpaces, markDue, settleDue } from '../../actors/due-index.js';
import { ManualClock } from '../../src/clock.js';
import { transportFor } from '../../src/delivery/transports.js';
import { globalKeys, shardOf } from '../../src/redis/keys.js';
import { sendQueue } from '../../src/redis/queues.js';
import { sweep } from '../../src/workers/send.js';
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
t.teardown(() => peer.close());

const nextWithin = (ms: number): Promise<Received | null> =>
  Promise.race([peer.next(), new Promise<null>((resolve) => setTimeout(() => resolve(null), ms).unref())]);

const dueKey = (spaceId: string) => globalKeys.dueSpaces(shardOf(spaceId, DUE_SHARDS));
const slotOf = (res: { body: { estimated_send_at: string } }) => Date.parse(res.body.estimated_send_at);

/** SCAN commands every primary has run so far. */
async function scans(): Promise<number> {
  const redis = svc.rt.redis;
  const nodes = 'nodes' in redis ? redis.nodes('master') : [redis];
  const stats = await Promise.all(nodes.map((node) => node.info('commandstats')));
  return stats.reduce((sum, text) => sum + Number(/cmdstat_scan:calls=(\d+)/.exec(text)?.[1] ?? 0), 0);
}

t.test(
  'a space with queued mail is found by the sweep through its due shard, without SCAN, and leaves the index once sent',
  async (t) => {
    const s = await sender(svc);
    const res = await send(svc, s);
    t.equal(res.status, 200);
    t.equal(Number(await svc.rt.redis.zscore(dueKey(s.spaceId), s.spaceId)), slotOf(res), 'scored at its departure');
    // Its wake-up lost: only the sweep can find it.
    await sendQueue(svc.rt, s.spaceId).remove(`wake-${s.spaceId}-${s.inboxId}-${slotOf(res)}`);

    const before = await scans();
    await sweep(svc.rt, transportFor(svc.rt), [s.spaceId]);
    t.ok(await nextWithin(5_000), 'the sweep sent it');
    if (!clusterMode()) t.equal(await scans(), before, 'no SCAN over the sweep');
    t.equal(await svc.rt.redis.zscore(dueKey(s.spaceId), s.spaceId), null, 'nothing waits: out of the index');
    t.equal(
      await svc.rt.redis.hget(globalKeys.dueMarks(shardOf(s.spaceId, DUE_SHARDS)), s.spaceId),
      null,
      'its mark too',
    );
  },
);

t.test('a space whose departures are later is due at the earliest of them, not before', async (t) => {
  const s = await sender(svc);
  const later = clock.now() + 3600_000;
  const res = await send(svc, s, { send_after: new Date(later).toISOString() });
  t.equal(slotOf(res), later);
  const due = (at: number) =>
    dueSpaces(svc.rt, shardOf(s.spaceId, DUE_SHARDS), at).then((list) => list.some((d) => d.spaceId === s.spaceId));
  t.notOk(await due(clock.now()), 'not visited now');
  t.ok(await due(later), 'visited when it falls due');
  // From another inbox (an inbox's departures keep their order: a new one goes after the queued ones).
  const other = await svc.call(s.apiKey, 'create_inbox', {
    username: 'support',
    domain: s.domain,
    display_name: 'Support',
  });
  const early = await send(svc, { ...s, inboxId: other.body.id });
  t.ok(slotOf(early) < later, 'due before');
  t.equal(
    Number(await svc.rt.redis.zscore(dueKey(s.spaceId), s.spaceId)),
    slotOf(early),
    'an earlier departure brings it forward',
  );
  await sweep(svc.rt, transportFor(svc.rt), [s.spaceId]);
  t.ok(await nextWithin(5_000), 'the due one left');
  t.equal(Number(await svc.rt.redis.zscore(dueKey(s.spaceId), s.spaceId)), later, 'settled at the later departure');
});

t.test('a space marked again during a visit is not dropped by that visit', async (t) => {
  const spaceId = `spc_duetest${Date.now().toString(36)}`;
  await markDue(svc.rt, spaceId, clock.now());
  const [seen] = (await dueSpaces(svc.rt, shardOf(spaceId, DUE_SHARDS), clock.now())).filter(
    (d) => d.spaceId === spaceId,
  );
  t.ok(seen, 'due');
  await markDue(svc.rt, spaceId, clock.now() + 1000);
  t.notOk(await settleDue(svc.rt, seen!, null), 'the visit saw it before the new mark: not settled');
  t.ok(await svc.rt.redis.zscore(dueKey(spaceId), spaceId), 'still in the index');
  const [again] = (await dueSpaces(svc.rt, shardOf(spaceId, DUE_SHARDS), clock.now())).filter(
    (d) => d.spaceId === spaceId,
  );
  t.ok(await settleDue(svc.rt, again!, null), 'a visit after the mark settles it');
  t.equal(await svc.rt.redis.zscore(dueKey(spaceId), spaceId), null);
});
