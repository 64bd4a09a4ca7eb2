/**
 * close_space, the whole state machine, and the erasure: with an injected clock, a space full of state
 * is closed, erased 48 h later, and Redis is scanned for anything of it left.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cluster, type Redis } from 'ioredis';
import t from 'tap';
import { eraseSpace, ERASURE_DELAY_MS } from '../../actors/closure.js';
import { spaceOfAddress } from '../../actors/inbox.js';
import { receiveInbound } from '../../actors/inbound.js';
import { eraseJobId, eraseQueue } from '../../src/redis/queues.js';
import { globalKeys, spaceKeyPattern, spaceKeys } from '../../src/redis/keys.js';
import { lastCode, lastCodeMail } from '../helpers/codes.js';
import { MASTER_KEY, verifiedDomain } from '../helpers/domains.js';
import { journalLines } from '../helpers/events.js';
import { mondayMorning, startService } from '../helpers/service.js';
import { startFakeStripe } from '../helpers/stripe.js';
import { receivedMail } from '../helpers/mail.js';

const dataDir = mkdtempSync(join(tmpdir(), 'mbx-closure-'));
t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
const clock = mondayMorning();
const env = { MAILBOX_DATA_DIR: dataDir, MAILBOX_MASTER_KEY: MASTER_KEY, SEND_WINDOW: 'always' };
const svc = await startService({ clock, env });

/** Every key of the space, on every primary. */
async function keysOf(spaceId: string): Promise<string[]> {
  const nodes: Redis[] = svc.rt.redis instanceof Cluster ? svc.rt.redis.nodes('master') : [svc.rt.redis];
  const found: string[] = [];
  for (const node of nodes) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', spaceKeyPattern(spaceId), 'COUNT', 1000);
      cursor = next;
      found.push(...keys);
    } while (cursor !== '0');
  }
  return found;
}

async function closeCode(apiKey: string, human = 'humain@exemple.fr'): Promise<string> {
  const step1 = await svc.call(apiKey, 'close_space', {});
  if (step1.status !== 200) throw new Error(JSON.stringify(step1.body));
  return (await lastCode(svc, human))!;
}

t.test('the whole path: tell, code, confirm, everything works 48 h, erased, nothing left', async (t) => {
  const { apiKey, spaceId } = await svc.space({ plan: 'pro' });
  const domain = await verifiedDomain(svc, apiKey);
  const own = await svc.call(apiKey, 'create_inbox', {
    username: 'ventes',
    domain: domain.domain,
    display_name: 'Ventes',
  });
  const shared = await svc.call(apiKey, 'create_inbox', {
    username: `agent-${spaceId.slice(-8)}`,
    domain: svc.rt.config.commonDomain,
    display_name: 'Agent',
  });
  t.equal(own.status, 200);
  t.equal(shared.status, 200);
  await svc.call(apiKey, 'send_email', {
    inbox_id: own.body.id,
    to: 'marie@destinataire.test',
    subject: 'Bonjour',
    text: 'Bonjour Marie.',
  });
  await svc.call(apiKey, 'add_suppression', { value: 'bloque@exemple.fr' });
  await svc.call(apiKey, 'create_key', { name: 'robot' });
  const received = await receiveInbound(
    svc.rt,
    spaceId,
    { id: own.body.id, address: own.body.address },
    receivedMail({
      from: 'marie@destinataire.test',
      from_name: 'Marie',
      subject: 'Devis',
      text: 'Ci-joint.',
      source: Buffer.from('Subject: Devis\r\n\r\nCi-joint.\r\n'),
      attachments: [
        {
          filename: 'devis.csv',
          content_type: 'text/csv',
          content: Buffer.from('ligne;prix\n'),
          inline: false,
          content_id: null,
        },
      ],
    }),
  );
  const source = (await svc.rt.redis.hget(spaceKeys(spaceId).message(received.message_id), 'source'))!;
  t.ok(await svc.rt.ports.blobs.getSource(spaceId, source), 'the raw source is in the blob store');
  t.ok((await svc.rt.ports.blobs.list(spaceId)).length >= 1, 'so is the attachment');

  const step1 = await svc.call(apiKey, 'close_space', {});
  t.equal(step1.status, 200);
  t.same(step1.body, {
    cancelled: false,
    closes_at: null,
    code_sent: true,
    expires_at: new Date(clock.now() + 15 * 60_000).toISOString(),
    human_email: 'h***@exemple.fr',
    removes: { inboxes: 2, domains: 1, subscription: 'pro', invoices_kept: true },
    scheduled: false,
    notice:
      "Demandez le code à l'humain, puis rappelez close_space avec confirmation_code pour confirmer (code valable jusqu'à lundi 23 novembre à 9 h 15, heure de Paris).",
  });
  const { code, text } = (await lastCodeMail(svc, 'humain@exemple.fr'))!;
  t.match(code, /^\d{6}$/);
  t.ok(text.includes(`${svc.url}/workspace/espace`), 'the mail links to the page where the human confirms or refuses');
  t.match(text, /\(2 boîtes et 1 domaine à supprimer\)/, 'counts in words');

  const step2 = await svc.call(apiKey, 'close_space', { confirmation_code: code });
  t.equal(step2.status, 200);
  const closesAt = clock.now() + ERASURE_DELAY_MS;
  t.match(step2.body, {
    scheduled: true,
    closes_at: new Date(closesAt).toISOString(),
    code_sent: false,
    cancelled: false,
  });
  const job = await eraseQueue(svc.rt).getJob(eraseJobId(spaceId, closesAt));
  t.ok(job, 'the erasure job waits');
  t.equal(
    (await svc.call(apiKey, 'get_settings')).body.space.closes_at,
    new Date(closesAt).toISOString(),
    'get_settings tells the closure',
  );
  t.equal(job!.opts.delay, ERASURE_DELAY_MS, 'for 48 h');
  const again = await svc.call(apiKey, 'close_space', {});
  t.match(again.body, { scheduled: true, code_sent: false }, 'asking again tells the closure, sends nothing');

  clock.advance(ERASURE_DELAY_MS - 60_000);
  t.equal((await svc.call(apiKey, 'list_inboxes', {})).status, 200, 'everything works until then');
  t.equal(await eraseSpace(svc.rt, spaceId, closesAt), false, 'a job early on the clock erases nothing');
  t.ok((await keysOf(spaceId)).length > 10);

  clock.advance(60_000);
  t.equal(await eraseSpace(svc.rt, spaceId, closesAt), true);
  t.same(await keysOf(spaceId), [], 'no key of the space is left');
  t.same(await svc.rt.ports.blobs.list(spaceId), [], 'no blob of the space is left');
  t.equal(await svc.rt.ports.blobs.getSource(spaceId, source), null, 'nor its raw source');
  t.notOk((await svc.rt.ports.blobs.spaces()).includes(spaceId), 'nor its folder');
  t.equal((await svc.call(apiKey, 'list_inboxes', {})).body.error.code, 'unauthorized', 'its keys stop');
  t.equal(await spaceOfAddress(svc.rt, own.body.address), null, 'the own-domain address is released');
  t.match(
    await spaceOfAddress(svc.rt, shared.body.address),
    { space_id: spaceId, state: 'deleted' },
    'a common-domain address is never reassigned',
  );
  t.equal(await svc.rt.redis.get(globalKeys.domain(domain.domain)), null, 'the domain claim is released');
  t.equal(await eraseSpace(svc.rt, spaceId, closesAt), false, 'a second run finds nothing to do');
});

t.test('step 3: cancel removes the confirmed closure and the pending code; the job then erases nothing', async (t) => {
  const { apiKey, spaceId } = await svc.space();
  const code = await closeCode(apiKey);
  const step2 = await svc.call(apiKey, 'close_space', { confirmation_code: code });
  const closesAt = Date.parse(step2.body.closes_at);
  const cancel = await svc.call(apiKey, 'close_space', { cancel: true });
  t.equal(cancel.status, 200);
  t.match(cancel.body, { cancelled: true, scheduled: false, closes_at: null });
  t.notOk(await eraseQueue(svc.rt).getJob(eraseJobId(spaceId, closesAt)), 'the job is removed');
  clock.advance(ERASURE_DELAY_MS);
  t.equal(await eraseSpace(svc.rt, spaceId, closesAt), false);
  t.equal((await svc.call(apiKey, 'get_settings', {})).status, 200, 'the space lives');
  t.match(
    (await svc.call(apiKey, 'close_space', { cancel: true })).body,
    { cancelled: false },
    'nothing to cancel: cancelled false',
  );

  clock.advance(60_000);
  const pending = await closeCode(apiKey);
  await svc.call(apiKey, 'close_space', { cancel: true });
  t.equal(
    (await svc.call(apiKey, 'close_space', { confirmation_code: pending })).body.error.code,
    'no_pending_code',
    'the pending code went too',
  );
  const kinds = (await journalLines(svc.rt, spaceId)).map((line) => line.kind);
  t.ok(kinds.includes('space.closure_scheduled') && kinds.includes('space.closure_cancelled'), 'both journaled');
});

t.test(
  'refusals: space_managed, no_human, no_pending_code, invalid_code, code_expired, too_many_attempts, code_too_soon',
  async (t) => {
    const managed = await svc.space({ managed: true });
    const res = await svc.call(managed.apiKey, 'close_space', {});
    t.equal(res.status, 409);
    t.equal(res.body.error.code, 'space_managed');

    const nobody = await svc.space();
    await svc.rt.redis.hdel(spaceKeys(nobody.spaceId).space, 'human_email');
    t.equal((await svc.call(nobody.apiKey, 'close_space', {})).body.error.code, 'no_human');

    const { apiKey } = await svc.space();
    t.equal(
      (await svc.call(apiKey, 'close_space', { confirmation_code: '123456' })).body.error.code,
      'no_pending_code',
    );
    clock.advance(60_000);
    const code = await closeCode(apiKey);
    const soon = await svc.call(apiKey, 'close_space', {});
    t.equal(soon.body.error.code, 'code_too_soon');
    t.ok(soon.body.error.hint.retry_after_seconds > 0);
    const bad = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const wrong = await svc.call(apiKey, 'close_space', { confirmation_code: bad });
    t.equal(wrong.status, 422);
    t.same(wrong.body.error.hint, { attempts_left: 9 });
    t.match(wrong.body.error.message, /encore 9 essais/);
    for (let i = 0; i < 8; i++) await svc.call(apiKey, 'close_space', { confirmation_code: bad });
    t.equal((await svc.call(apiKey, 'close_space', { confirmation_code: bad })).body.error.code, 'too_many_attempts');
    t.equal((await svc.call(apiKey, 'close_space', { confirmation_code: code })).body.error.code, 'no_pending_code');

    clock.advance(60_000);
    const late = await closeCode(apiKey);
    clock.advance(24 * 3600_000 + 1);
    const expired = await svc.call(apiKey, 'close_space', { confirmation_code: late });
    t.equal(expired.status, 409);
    t.equal(expired.body.error.code, 'code_expired', 'older than 24 h (already past its 15 minutes)');
    t.equal(
      (await svc.call(apiKey, 'close_space', { cancel: true, confirmation_code: late })).body.error.code,
      'invalid_argument',
    );
    const reader = await svc.key(apiKey, { name: 'lecteur', permissions: ['read'] });
    t.equal((await svc.call(reader.apiKey, 'close_space', {})).body.error.code, 'forbidden');
  },
);

t.test('code_not_sent: the e-mail cannot leave, nothing changes', async (t) => {
  const broken = await startService({ clock, env: { ...env, OUTBOUND: 'smtp://127.0.0.1:9' } });
  const { apiKey, spaceId } = await broken.space();
  const res = await broken.call(apiKey, 'close_space', {});
  t.equal(res.status, 502);
  t.equal(res.body.error.code, 'code_not_sent');
  t.equal(await svc.rt.redis.exists(spaceKeys(spaceId).code('close')), 0);
});

t.test(
  'billing: the provider cancels the subscription at confirmation; billing_unavailable changes nothing',
  async (t) => {
    const stripe = await startFakeStripe();
    const billed = await startService({
      clock,
      env: { ...env, STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_API_URL: stripe.url },
    });
    const { apiKey, spaceId } = await billed.space({ plan: 'pro' });
    clock.advance(60_000);
    t.equal((await billed.call(apiKey, 'close_space', {})).status, 200);
    const code = (await lastCode(billed, 'humain@exemple.fr'))!;
    stripe.subscriptions = ['sub_1'];
    stripe.failing = true;
    const refused = await billed.call(apiKey, 'close_space', { confirmation_code: code });
    t.equal(refused.status, 503);
    t.equal(refused.body.error.code, 'billing_unavailable');
    t.equal(
      await billed.rt.redis.hget(spaceKeys(spaceId).code('close'), 'attempts'),
      '0',
      'the attempt does not count',
    );
    t.equal(await billed.rt.redis.hget(spaceKeys(spaceId).space, 'closes_at'), null, 'nothing scheduled');
    stripe.failing = false;
    const ok = await billed.call(apiKey, 'close_space', { confirmation_code: code });
    t.equal(ok.status, 200);
    t.equal(ok.body.scheduled, true);
    t.ok(
      stripe.requests.some((r) => r.method === 'DELETE' && r.path === '/v1/subscriptions/sub_1'),
      'the subscription is cancelled',
    );
    t.ok(stripe.requests.every((r) => r.authorization === 'Bearer sk_test_x'));
  },
);
