/**
 * Signed webhook deliveries to a real https receiver on loopback, every signature checked by the
 * `standardwebhooks` package (an independent implementation): webhook.test, order, retries after a 500
 * or a timeout, give-ups in the journal, the SSRF guard at delivery, replacement, the sweeper.
 */
import { randomBytes } from 'node:crypto';
import t from 'tap';
import { Webhook } from 'standardwebhooks';
import { resumeInbox, suspendInbox } from '../../actors/inbox.js';
import { ManualClock } from '../../src/clock.js';
import { globalKeys, spaceKeys } from '../../src/redis/keys.js';
import {
  claimSpaces,
  settleSpace,
  sweepWebhooks,
  wakeSpace,
  WEBHOOK_SHARDS,
  webhookShard,
} from '../../actors/webhook-index.js';
import { startWebhookWorker } from '../../src/webhooks/worker.js';
import { streamEnvelopes } from '../helpers/events.js';
import { send, sender } from '../helpers/outbound.js';
import { startService, type TestService } from '../helpers/service.js';
import { startReceiver, type Received } from '../helpers/webhooks.js';

const receiver = await startReceiver();
const MASTER_KEY = randomBytes(32).toString('base64');
const env = {
  MAILBOX_MASTER_KEY: MASTER_KEY,
  WEBHOOK_ALLOW_LOOPBACK: '1',
  WEBHOOK_CA_FILE: receiver.caFile,
  WEBHOOK_RETRY_SCHEDULE: '100ms,200ms,300ms',
  WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_LEASE_MS: '3000',
};
const svc = await startService({ env });
svc.dns.a('hook.test', '127.0.0.1');
const worker = startWebhookWorker(svc.rt, { idleMs: 20 });
t.teardown(() => worker.close());

const spaceOf = (r: Received): string => JSON.parse(r.body).account.space_id;
const reasonOf = (r: Received): string => JSON.parse(r.body).data.reason;
const fromSpace = (spaceId: string, type?: string) => (r: Received) =>
  spaceOf(r) === spaceId && (!type || r.type.startsWith(type));

/** Checks a delivery with the standardwebhooks package; returns the parsed payload. */
function verify(secret: string, r: Received): any {
  const headers = r.headers as Record<string, string>;
  return new Webhook(secret).verify(r.body, {
    'webhook-id': headers['webhook-id']!,
    'webhook-timestamp': headers['webhook-timestamp']!,
    'webhook-signature': headers['webhook-signature']!,
  });
}

async function space(s: TestService = svc, path = '/recevoir', host = 'hook.test') {
  const { apiKey, spaceId } = await s.space({ plan: 'pro' });
  const box = await s.call(apiKey, 'create_inbox', {
    username: `boite-${randomBytes(3).toString('hex')}`,
    display_name: 'Boîte',
  });
  const hook = await s.call(apiKey, 'set_webhook', { url: `https://${host}:${receiver.port}${path}` });
  if (hook.status !== 200) throw new Error(JSON.stringify(hook.body));
  return { apiKey, spaceId, inboxId: box.body.id as string, secret: hook.body.secret as string };
}

/** Until no worker holds the space nor has it due: its deliveries are over. */
async function settled(spaceId: string): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    if (
      (await svc.rt.redis.zscore(globalKeys.webhookDue(svc.rt.config.webhookIndex, webhookShard(spaceId)), spaceId)) ===
      null
    )
      return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

async function emit(s: TestService, spaceId: string, inboxId: string, reason: string): Promise<void> {
  await suspendInbox(s.rt, spaceId, inboxId, reason);
  await resumeInbox(s.rt, spaceId, inboxId);
}

t.test('webhook.test at once, then events in order; every signature verified, svix headers alike', async (t) => {
  const { apiKey, spaceId, inboxId, secret } = await space();
  const [test] = await receiver.until(1, fromSpace(spaceId, 'webhook.test'));
  const payload = verify(secret, test!);
  t.match(payload, {
    type: 'webhook.test',
    account: { space_id: spaceId },
    data: { url: `https://hook.test:${receiver.port}/recevoir` },
    v: 1,
  });
  t.equal(test!.headers['webhook-id'], payload.id);
  t.equal(test!.headers['content-type'], 'application/json');
  for (const name of ['id', 'timestamp', 'signature'])
    t.equal(test!.headers[`svix-${name}`], test!.headers[`webhook-${name}`], `svix-${name}`);
  t.ok(Math.abs(Number(test!.headers['webhook-timestamp']) - Date.now() / 1000) < 30, 'timestamp in seconds, now');
  t.throws(() => verify(`whsec_${randomBytes(32).toString('base64')}`, test!), 'another secret does not verify');

  for (let i = 1; i <= 5; i++) await emit(svc, spaceId, inboxId, `ordre ${i}`);
  const got = await receiver.until(5, fromSpace(spaceId, 'mail.'));
  t.same(got.map(reasonOf), ['ordre 1', 'ordre 2', 'ordre 3', 'ordre 4', 'ordre 5']);
  for (const r of got) t.equal(verify(secret, r).id, r.id);
  const feed = await svc.call(apiKey, 'event_feed', {});
  t.same(
    got.map((r) => r.body),
    feed.body.events.map((e: unknown) => JSON.stringify(e)),
    'the same envelopes as the feed, byte for byte',
  );
});

t.test('a 500 is retried, signed again; the next event waits for it', async (t) => {
  const { spaceId, inboxId, secret } = await space();
  await receiver.until(1, fromSpace(spaceId, 'webhook.test'));
  receiver.answer = (r, nth) => ({
    status: spaceOf(r) === spaceId && reasonOf(r) === 'refusé une fois' && nth === 1 ? 500 : 200,
  });
  await emit(svc, spaceId, inboxId, 'refusé une fois');
  await emit(svc, spaceId, inboxId, 'suivant');
  const got = await receiver.until(3, fromSpace(spaceId, 'mail.'));
  receiver.answer = () => ({ status: 200 });
  t.same(
    got.map(reasonOf),
    ['refusé une fois', 'refusé une fois', 'suivant'],
    'in order: the retry before the next event',
  );
  t.equal(got[0]!.id, got[1]!.id, 'same webhook-id');
  for (const r of got) t.ok(verify(secret, r), 'retried delivery verifies');
  t.ok(got[1]!.at - got[0]!.at >= 90, `retried after the first wait (${got[1]!.at - got[0]!.at} ms)`);
});

t.test('no answer within the timeout counts as a failure and is retried', async (t) => {
  const { spaceId, inboxId, secret } = await space();
  await receiver.until(1, fromSpace(spaceId, 'webhook.test'));
  receiver.answer = (r, nth) => ({ status: 200, delayMs: spaceOf(r) === spaceId && nth === 1 ? 1500 : 0 });
  await emit(svc, spaceId, inboxId, 'lent');
  const got = await receiver.until(2, fromSpace(spaceId, 'mail.'));
  receiver.answer = () => ({ status: 200 });
  t.equal(got[0]!.id, got[1]!.id);
  t.ok(verify(secret, got[1]!));
});

t.test('after the last retry the event is given up, journalled, and the next one goes', async (t) => {
  const { apiKey, spaceId, inboxId } = await space();
  await receiver.until(1, fromSpace(spaceId, 'webhook.test'));
  receiver.answer = (r) => ({ status: spaceOf(r) === spaceId && reasonOf(r) === 'jamais' ? 503 : 200 });
  await emit(svc, spaceId, inboxId, 'jamais');
  await emit(svc, spaceId, inboxId, 'ensuite');
  const got = await receiver.until(5, fromSpace(spaceId, 'mail.'));
  receiver.answer = () => ({ status: 200 });
  t.same(
    got.map(reasonOf),
    ['jamais', 'jamais', 'jamais', 'jamais', 'ensuite'],
    'one try and three retries, then the next',
  );
  const { webhook } = (await svc.call(apiKey, 'get_settings')).body;
  t.match(
    webhook,
    { failed_attempts: 0, next_attempt_at: null, last_error: 'réponse HTTP 503' },
    'get_settings tells the last error of the event given up',
  );
  const history = await svc.call(apiKey, 'list_events', { inbox_id: inboxId });
  const line = history.body.events.find((e: any) => e.kind === 'webhook.gave_up');
  t.match(line, {
    actor: { kind: 'service', name: 'Mailbox', you: false },
    inbox_id: inboxId,
    text: new RegExp(
      `^Abandon de l'envoi de l'événement mail\\.inbox\\.suspended \\(${got[0]!.id}\\) au webhook « https://hook\\.test:${receiver.port}/recevoir » après 4 tentatives : réponse HTTP 503$`,
    ),
  });
});

t.test(
  'the SSRF guard runs again at delivery: a name now pointing inside is not called; the space reads a generic reason, the operator the detail',
  async (t) => {
    const logged: Record<string, unknown>[] = [];
    const { warn } = svc.rt.log;
    svc.rt.log.warn = (msg, fields) => void (msg === 'webhook delivery given up' && logged.push(fields!));
    t.teardown(() => void (svc.rt.log.warn = warn));
    svc.dns.a('rebind.test', '127.0.0.1');
    const { apiKey, spaceId, inboxId } = await space(svc, '/rebind', 'rebind.test');
    await receiver.until(1, fromSpace(spaceId, 'webhook.test'));
    svc.dns.remove('rebind.test', 'A');
    svc.dns.a('rebind.test', '10.0.0.7');
    await emit(svc, spaceId, inboxId, 'détourné');
    let line: any;
    for (let i = 0; i < 100 && !line; i++) {
      await new Promise((r) => setTimeout(r, 50));
      line = (await svc.call(apiKey, 'list_events', { inbox_id: inboxId })).body.events.find(
        (e: any) => e.kind === 'webhook.gave_up',
      );
    }
    t.match(line?.text, /après 4 tentatives : aucune réponse HTTP exploitable$/);
    t.notMatch(JSON.stringify(line), /10\.0\.0\.7|interne/, 'nothing tells the space why');
    t.notMatch(await svc.rt.redis.hget(spaceKeys(spaceId).webhook, 'last_error'), /10\.0\.0\.7/);
    t.match(
      logged.find((fields) => fields.space_id === spaceId),
      { detail: 'rebind.test pointe vers une adresse interne (réseau privé : 10.0.0.7).' },
    );
    t.equal(receiver.received.filter(fromSpace(spaceId, 'mail.')).length, 0, 'never connected');
  },
);

t.test('a lost wake-up is repaired by the sweeper', async (t) => {
  const { spaceId, inboxId, secret } = await space();
  await receiver.until(1, fromSpace(spaceId, 'webhook.test'));
  t.ok(await settled(spaceId));
  const hook = svc.rt.scripts.afterEvents;
  svc.rt.scripts.afterEvents = null;
  await emit(svc, spaceId, inboxId, 'oublié');
  svc.rt.scripts.afterEvents = hook;
  await new Promise((r) => setTimeout(r, 200));
  t.equal(receiver.received.filter(fromSpace(spaceId, 'mail.')).length, 0, 'nobody woke it');
  await svc.rt.redis.del(globalKeys.webhookSweep(svc.rt.config.webhookIndex));
  t.ok((await sweepWebhooks(svc.rt))! >= 1);
  t.equal(await sweepWebhooks(svc.rt), null, 'one sweep per period across workers');
  const [got] = await receiver.until(1, fromSpace(spaceId, 'mail.'));
  t.equal(reasonOf(got!), 'oublié');
  t.ok(verify(secret, got!));
});

t.test('a sweep looks at a bounded number of spaces, and the next goes on where it stopped', async (t) => {
  const lost = [await space(), await space(), await space()];
  for (const { spaceId } of lost) await receiver.until(1, fromSpace(spaceId, 'webhook.test'));
  const hook = svc.rt.scripts.afterEvents;
  svc.rt.scripts.afterEvents = null;
  for (const { spaceId, inboxId } of lost) await emit(svc, spaceId, inboxId, 'oublié aussi');
  svc.rt.scripts.afterEvents = hook;
  const index = svc.rt.config.webhookIndex;
  let declared = 0;
  for (let shard = 0; shard < WEBHOOK_SHARDS; shard++)
    declared += await svc.rt.redis.scard(globalKeys.webhookSpaces(index, shard));
  // SSCAN's COUNT is a hint: a small set answers whole. Enough passes of two go round the index once.
  let woken = 0;
  for (let pass = 0; pass < declared; pass++) {
    await svc.rt.redis.del(globalKeys.webhookSweep(index));
    woken += (await sweepWebhooks(svc.rt, 2))!;
  }
  t.ok(woken >= 3, 'every lost wake found, passes of two spaces at a time');
  for (const { spaceId } of lost) {
    const [got] = await receiver.until(1, fromSpace(spaceId, 'mail.'));
    t.equal(reasonOf(got!), 'oublié aussi');
  }
});

t.test('spaces without a webhook are woken, then dropped from the index', async (t) => {
  const { apiKey, spaceId } = await svc.space({ plan: 'pro' });
  const box = await svc.call(apiKey, 'create_inbox', {
    username: `sans-${randomBytes(3).toString('hex')}`,
    display_name: 'Sans',
  });
  await emit(svc, spaceId, box.body.id, 'personne');
  t.ok(await settled(spaceId));
});

t.test('a send wakes delivery only where a webhook is declared (the queue script says which)', async (t) => {
  const without = await sender(svc);
  // Its creation's scripts woke it (they do not say whether a webhook exists); the worker drops it.
  t.ok(await settled(without.spaceId));
  const quiet = await send(svc, without);
  t.equal(quiet.status, 200, JSON.stringify(quiet.body));
  t.equal((await streamEnvelopes(svc.rt, without.spaceId)).at(-1)?.type, 'mail.message.queued', 'its event is written');
  t.equal(
    await svc.rt.redis.zscore(
      globalKeys.webhookDue(svc.rt.config.webhookIndex, webhookShard(without.spaceId)),
      without.spaceId,
    ),
    null,
    'nothing woken',
  );

  const withHook = await sender(svc);
  const hook = await svc.call(withHook.apiKey, 'set_webhook', { url: `https://hook.test:${receiver.port}/recevoir` });
  t.equal(hook.status, 200, JSON.stringify(hook.body));
  const sent = await send(svc, withHook);
  t.equal(sent.status, 200, JSON.stringify(sent.body));
  const [queued] = await receiver.until(1, fromSpace(withHook.spaceId, 'mail.message.queued'));
  t.equal(verify(hook.body.secret, queued!).data.message_id, sent.body.message.id);
});

t.test('a replacement gets a new secret and, at once, what the old address had not taken', async (t) => {
  const clock = new ManualClock(Date.now());
  const slow = await startService({ clock, env: { ...env, WEBHOOK_RETRY_SCHEDULE: '1h' } });
  slow.dns.a('hook.test', '127.0.0.1');
  const own = startWebhookWorker(slow.rt, { idleMs: 20 });
  t.teardown(() => own.close());
  receiver.answer = (r) => ({ status: r.path === '/ancien' ? 500 : 200 });
  const { apiKey, spaceId, secret: oldSecret } = await space(slow, '/ancien');
  const [failed] = await receiver.until(1, fromSpace(spaceId, 'webhook.test'));
  t.ok(verify(oldSecret, failed!));
  clock.advance(61_000);
  const replaced = await slow.call(apiKey, 'set_webhook', { url: `https://hook.test:${receiver.port}/nouveau` });
  t.equal(replaced.body.replaced, true);
  const got = await receiver.until(3, fromSpace(spaceId, 'webhook.test'));
  receiver.answer = () => ({ status: 200 });
  t.equal(got[1]!.id, failed!.id, 'the waiting event went first, without its hour of wait');
  t.not(got[2]!.id, failed!.id, 'then the new declaration’s webhook.test');
  for (const r of got.slice(1)) {
    t.ok(verify(replaced.body.secret, r), 'signed with the new secret');
    t.throws(() => verify(oldSecret, r), 'not with the old one');
  }
});

t.test(
  "a declaration during a claim that ends on the old address's retry time: due at once all the same",
  async (t) => {
    // No worker on this service's index: the claim, the declaration's wake and the settling are ordered here.
    const clock = new ManualClock(Date.now());
    const quiet = await startService({ clock, env });
    const due = async (spaceId: string) =>
      Number(
        await quiet.rt.redis.zscore(
          globalKeys.webhookDue(quiet.rt.config.webhookIndex, webhookShard(spaceId)),
          spaceId,
        ),
      );
    const claimed = async (spaceId: string) => {
      await wakeSpace(quiet.rt, spaceId);
      const claim = await claimSpaces(quiet.rt, webhookShard(spaceId), 10);
      t.ok(claim.spaces.includes(spaceId), 'claimed');
      return claim.token;
    };
    const inAnHour = () => clock.now() + 3_600_000;

    // Spaces of one shard are claimed together: each step leaves no other space due now.
    const evented = `spc_${randomBytes(10).toString('hex')}`;
    const first = await claimed(evented);
    await wakeSpace(quiet.rt, evented);
    await settleSpace(quiet.rt, evented, first, inAnHour());
    t.equal(await due(evented), inAnHour(), 'a new event waits behind the retry of the oldest one');

    // In the same shard as the first, so that a claim of one could take the other.
    let declared = evented;
    while (declared === evented || webhookShard(declared) !== webhookShard(evented))
      declared = `spc_${randomBytes(10).toString('hex')}`;
    const token = await claimed(declared);
    await wakeSpace(quiet.rt, declared, 'now');
    await settleSpace(quiet.rt, declared, token, inAnHour());
    t.equal(await due(declared), clock.now(), 'the new declaration goes at once');

    const next = await claimed(declared);
    await settleSpace(quiet.rt, declared, next, inAnHour());
    t.equal(await due(declared), inAnHour(), 'the mark of a declaration is spent by the claim that follows');
  },
);
