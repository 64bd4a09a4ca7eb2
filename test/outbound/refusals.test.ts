/**
 * Every refusal of send_email, over real HTTP: its status, its hint, a French message that ends with
 * what to do, and nothing written. Plus what is allowed beside each rule (the space's own human without
 * plan, test sends, the 30-day window's end, the next Paris day), idempotent replays and dry runs.
 */
import t, { type Test } from 'tap';
import { deadAddressKey } from '../../actors/dead-addresses.js';
import { recheckDomain } from '../../actors/domain.js';
import { suspendInbox } from '../../actors/inbox.js';
import { spaceKeys } from '../../src/redis/keys.js';
import { MASTER_KEY } from '../helpers/domains.js';
import { startInbound } from '../helpers/inbound.js';
import { inboxState, recipient, send, sender, type Sender } from '../helpers/outbound.js';
import { mondayMorning, startService, type CallResult } from '../helpers/service.js';

const MONDAY = Date.parse('2026-11-23T08:00:00.000Z'); // 9:00 in Paris
const clock = mondayMorning();
// `petit`: a daily maximum of 1, so its queue cap (ten times that) is quick to reach.
const PLANS = JSON.stringify({
  starter: { inbox_cap: 3 },
  pro: { inbox_cap: 25 },
  petit: { inbox_cap: 3, daily_max: 1 },
});
const svc = await startService({ clock, env: { MAILBOX_MASTER_KEY: MASTER_KEY, PLANS } });
const HUMAN = 'humain@exemple.fr';

/** Checks a refusal's code and status, that its message ends with a sentence, and returns its hint. */
function refused(t: Test, res: CallResult, code: string, status: number): Record<string, unknown> | null {
  t.equal(res.status, status, `${code}: HTTP ${status}`);
  t.equal(res.body.error?.code, code, JSON.stringify(res.body.error));
  t.match(res.body.error?.message, /[.!]$/, 'the message ends with the action to take');
  return res.body.error?.hint ?? null;
}

/** A send that must be refused, and leave the inbox and the space exactly as they were. */
async function refusedUnchanged(
  t: Test,
  s: Sender,
  body: Record<string, unknown>,
  code: string,
  status: number,
  key = s.apiKey,
) {
  const before = await inboxState(svc, s);
  const res = await svc.call(key, 'send_email', {
    inbox_id: s.inboxId,
    to: recipient(),
    subject: 'Bonjour',
    text: 'Bonjour !',
    ...body,
  });
  const hint = refused(t, res, code, status);
  t.same(await inboxState(svc, s), before, `${code}: nothing written`);
  return { hint, res };
}

/** An inbox on the common domain (named: a space with a verified domain of its own gets that one by default). */
const commonInbox = async (apiKey: string) => {
  const res = await svc.call(apiKey, 'create_inbox', {
    username: `agent-${Math.random().toString(36).slice(2, 8)}`,
    domain: svc.rt.config.commonDomain,
    display_name: 'Agent',
  });
  if (res.status !== 200 || !res.body.shared) throw new Error(JSON.stringify(res.body));
  return res.body as { id: string; address: string };
};

t.beforeEach(() => clock.set(MONDAY));

t.test('invalid_argument names each parameter', async (t) => {
  const s = await sender(svc);
  const cases: [Record<string, unknown>, string][] = [
    [{ inbox_id: 'inb_42' }, 'inbox_id'],
    [{ to: 'pas-une-adresse' }, 'to'],
    [{ to: 'a@b' }, 'to'],
    [{ to: 'a..b@exemple.fr' }, 'to'],
    [{ to_name: 'x'.repeat(121) }, 'to_name'],
    [{ to_name: 'Léa\nMartin' }, 'to_name'],
    [{ subject: '' }, 'subject'],
    [{ subject: 'x'.repeat(301) }, 'subject'],
    [{ subject: 'Bonjour\r\nBcc: tous@exemple.fr' }, 'subject'],
    [{ text: '' }, 'text'],
    [{ text: 42 }, 'text'],
    [{ html: true }, 'html'],
    [{ reply_to: 'nulle-part' }, 'reply_to'],
    [{ metadata: 'texte' }, 'metadata'],
    [{ metadata: { notes: 'x'.repeat(8000) } }, 'metadata'],
    [{ requires_approval: 'oui' }, 'requires_approval'],
    [{ test: 1 }, 'test'],
    [{ send_after: '2026' }, 'send_after'],
    [{ send_after: 'demain matin' }, 'send_after'],
    [{ idempotency_key: '' }, 'idempotency_key'],
    [{ idempotency_key: 'k'.repeat(256) }, 'idempotency_key'],
    [{ dry_run: 'oui' }, 'dry_run'],
    [{ surprise: true }, 'surprise'],
    [{ to: undefined }, 'to'],
    [{ subject: undefined }, 'subject'],
    [{ text: undefined }, 'text'],
  ];
  for (const [body, parameter] of cases) {
    const { hint } = await refusedUnchanged(t, s, body, 'invalid_argument', 400);
    t.equal(hint?.parameter, parameter, `${JSON.stringify(body).slice(0, 60)} names ${parameter}`);
  }
  t.equal(
    (await send(svc, s, { metadata: { notes: 'x'.repeat(7980) } })).status,
    200,
    'metadata just under 8000 characters is fine',
  );
});

t.test(
  'recipients: every form refused as its own parameter, every copy judged as to, over HTTP and MCP alike',
  async (t) => {
    const s = await sender(svc);
    const keys = spaceKeys(s.spaceId);
    const client = await svc.mcp(s.apiKey);
    /** The same call over MCP: its refusal's code and hint (the error object follows the French message). */
    const overMcp = async (body: Record<string, unknown>) => {
      const res = await client.callTool({
        name: 'send_email',
        arguments: { inbox_id: s.inboxId, to: recipient(), subject: 'Bonjour', text: 'Bonjour !', ...body },
      });
      t.equal(res.isError, true, `MCP refuses ${JSON.stringify(body).slice(0, 60)}`);
      return JSON.parse((res.content as { text: string }[])[1]!.text).error as {
        code: string;
        hint: Record<string, unknown> | null;
      };
    };
    const both = async (body: Record<string, unknown>, code: string, status: number) => {
      const { hint } = await refusedUnchanged(t, s, body, code, status);
      const mcp = await overMcp(body);
      t.same([mcp.code, mcp.hint], [code, hint], `${code}: the same refusal over MCP`);
      return hint;
    };

    const eleven = Array.from({ length: 11 }, () => recipient('copie'));
    const invalid: [Record<string, unknown>, string][] = [
      [{ to: 'Léa <lea@exemple.fr>', to_name: 'Léa Martin' }, 'to_name'],
      [{ to: 'Léa <pas-une-adresse>' }, 'to'],
      [{ to: 'Léa <>' }, 'to'],
      [{ to: `${'x'.repeat(121)} <lea@exemple.fr>` }, 'to'],
      [{ cc: eleven }, 'cc'],
      [{ bcc: eleven }, 'bcc'],
      [{ cc: 'lea@exemple.fr' }, 'cc'],
      [{ cc: [recipient(), 'Paul <paul@>'] }, 'cc[1]'],
      [{ bcc: [recipient(), 'a..b@exemple.fr'] }, 'bcc[1]'],
      [{ bcc: ['Zoé\r\n<zoe@exemple.fr>'] }, 'bcc[0]'],
    ];
    for (const [body, parameter] of invalid) {
      const hint = await both(body, 'invalid_argument', 400);
      t.equal(hint?.parameter, parameter, `${JSON.stringify(body).slice(0, 60)} names ${parameter}`);
    }

    const blocked = recipient('bloque');
    await svc.rt.redis.hset(keys.suppressions, blocked, JSON.stringify({ value: blocked, reason: 'unsubscribe' }));
    t.same(
      await both({ cc: [recipient(), blocked] }, 'recipient_suppressed', 422),
      { reason: 'unsubscribe', recipient: blocked },
      'a suppressed cc, named',
    );
    await svc.rt.redis.hset(
      keys.suppressions,
      '@concurrent.test',
      JSON.stringify({ value: '@concurrent.test', reason: 'manual' }),
    );
    t.same(
      await both({ bcc: ['Direction <direction@concurrent.test>'] }, 'recipient_suppressed', 422),
      { reason: 'manual', recipient: 'direction@concurrent.test' },
      'a suppressed domain in bcc',
    );
    const dead = recipient('mort');
    await svc.rt.redis.hset(deadAddressKey(dead), dead, JSON.stringify({ at: MONDAY }));
    t.same(
      await both({ cc: [dead] }, 'recipient_suppressed', 422),
      { reason: 'dead_address', recipient: dead },
      'a dead cc',
    );
    const filter = await svc.call(s.apiKey, 'add_filter', {
      inbox_id: s.inboxId,
      direction: 'send',
      action: 'block',
      value: 'interdit.test',
    });
    t.equal(filter.status, 200, JSON.stringify(filter.body));
    t.match(
      await both({ bcc: ['chef@interdit.test'] }, 'recipient_not_allowed', 422),
      { filter_id: filter.body.filter.id, recipient: 'chef@interdit.test' },
      'a filtered bcc',
    );
    const outside = recipient('dehors');
    t.same(
      await both({ to: HUMAN, test: true, cc: [outside] }, 'test_recipient_not_allowed', 422),
      { recipient: outside },
      'a test send with a copy outside the space',
    );
    t.equal(
      (await send(svc, s, { to: HUMAN, test: true, cc: [s.address] })).status,
      200,
      'a test send copied to an inbox of the space',
    );

    await svc.rt.redis.hset(keys.space, 'plan', 'none');
    await both({ to: HUMAN, cc: [recipient()] }, 'payment_required', 402);
    await svc.rt.redis.hset(keys.space, 'plan', 'pro');
    const box = await commonInbox(s.apiKey);
    await refusedUnchanged(t, { ...s, inboxId: box.id }, { to: HUMAN, bcc: [recipient()] }, 'own_domain_required', 422);

    // The 30-day rule is about `to`; one message counts once in the key's day.
    const to = recipient('suivi');
    t.equal((await send(svc, s, { cc: [to] })).status, 200);
    const before = await inboxState(svc, s);
    t.equal(
      (await send(svc, s, { to, cc: [recipient(), recipient()], bcc: [recipient()] })).status,
      200,
      'once a copy, still a first message for to',
    );
    const after = await inboxState(svc, s);
    t.equal(after.queued, before.queued + 1, 'one message in the queue');
    const [keyId] = Object.keys(after.keySent);
    t.equal(Number(after.keySent[keyId!]) - Number(before.keySent[keyId!] ?? 0), 1, "one message in the key's day");
    await refusedUnchanged(t, s, { to, cc: [recipient()] }, 'duplicate_recipient', 409);
  },
);

t.test('space_unverified: its inboxes receive but do not send', async (t) => {
  const s = await sender(svc);
  await svc.rt.redis.hset(spaceKeys(s.spaceId).space, 'verified', '0');
  await refusedUnchanged(t, s, {}, 'space_unverified', 403);
});

t.test("payment_required: a third party without plan; the space's own human is always reachable", async (t) => {
  const s = await sender(svc);
  await svc.rt.redis.hset(spaceKeys(s.spaceId).space, 'plan', 'none');
  const { res } = await refusedUnchanged(t, s, {}, 'payment_required', 402);
  t.match(res.body.error.message, /subscribe/);
  t.equal((await send(svc, s, { to: HUMAN })).status, 200, 'to the human, from an own-domain inbox');
  t.equal((await send(svc, s, { requires_approval: true })).body.status, 'draft', 'a free space prepares drafts');

  const free = await svc.space({ plan: 'none' });
  const box = await commonInbox(free.apiKey);
  const toHuman = await svc.call(free.apiKey, 'send_email', {
    inbox_id: box.id,
    to: HUMAN,
    subject: 'Essai',
    text: 'Bonjour !',
  });
  t.equal(toHuman.status, 200, 'to the human from a common-domain inbox without plan');
  t.equal(toHuman.body.status, 'queued');
});

t.test('own_domain_required: a common-domain inbox writes first only to the space itself', async (t) => {
  const s = await sender(svc);
  const box = await commonInbox(s.apiKey);
  await refusedUnchanged(t, { ...s, inboxId: box.id }, {}, 'own_domain_required', 422);
  const toOwn = await svc.call(s.apiKey, 'send_email', {
    inbox_id: box.id,
    to: s.address,
    subject: 'Interne',
    text: 'Bonjour !',
  });
  t.equal(toOwn.status, 200, 'another inbox of the space is no third party');
});

t.test("not_found: unknown inbox, another space's, outside a restricted key, deleted", async (t) => {
  const s = await sender(svc);
  const other = await sender(svc);
  await refusedUnchanged(t, s, { inbox_id: 'inb_00000000000000000000' }, 'not_found', 404);
  await refusedUnchanged(t, s, { inbox_id: other.inboxId }, 'not_found', 404);
  const second = await svc.call(s.apiKey, 'create_inbox', {
    username: 'achats',
    domain: s.domain,
    display_name: 'Achats',
  });
  const restricted = await svc.key(s.apiKey, { name: 'achats', permissions: ['send'], inbox_ids: [second.body.id] });
  await refusedUnchanged(t, s, {}, 'not_found', 404, restricted.apiKey);
  t.equal(
    (
      await svc.call(restricted.apiKey, 'send_email', {
        inbox_id: second.body.id,
        to: recipient(),
        subject: 'A',
        text: 'B',
      })
    ).status,
    200,
  );
  await svc.call(s.apiKey, 'delete_inbox', { inbox_id: second.body.id, confirm: true });
  t.equal(
    (await svc.call(s.apiKey, 'send_email', { inbox_id: second.body.id, to: recipient(), subject: 'A', text: 'B' }))
      .body.error.code,
    'not_found',
  );
});

t.test('recipient_suppressed: an address or a domain of the suppression list, a dead address', async (t) => {
  const s = await sender(svc);
  const keys = spaceKeys(s.spaceId);
  const blocked = recipient('bloque');
  await svc.rt.redis.hset(keys.suppressions, blocked, JSON.stringify({ value: blocked, reason: 'unsubscribe' }));
  t.match((await refusedUnchanged(t, s, { to: blocked.toUpperCase() }, 'recipient_suppressed', 422)).hint, {
    reason: 'unsubscribe',
  });
  await svc.rt.redis.hset(
    keys.suppressions,
    '@concurrent.test',
    JSON.stringify({ value: '@concurrent.test', reason: 'manual' }),
  );
  t.match((await refusedUnchanged(t, s, { to: 'direction@concurrent.test' }, 'recipient_suppressed', 422)).hint, {
    reason: 'manual',
  });
  const dead = recipient('mort');
  await svc.rt.redis.hset(deadAddressKey(dead), dead, JSON.stringify({ at: MONDAY }));
  t.match((await refusedUnchanged(t, s, { to: dead }, 'recipient_suppressed', 422)).hint, { reason: 'dead_address' });
  const other = await sender(svc);
  t.equal((await send(svc, other, { to: blocked })).status, 200, 'a suppression belongs to its space');
});

t.test('duplicate_recipient: one first message per recipient and inbox in 30 days; tests exempt', async (t) => {
  const s = await sender(svc);
  const to = recipient();
  const first = await send(svc, s, { to });
  const { hint, res } = await refusedUnchanged(t, s, { to }, 'duplicate_recipient', 409);
  t.same(hint, { thread_id: first.body.thread.id });
  t.match(res.body.error.message, `Répondez dans le fil ${first.body.thread.id} avec reply_to_thread.`);
  t.equal((await send(svc, s, { to, requires_approval: true })).body.error.code, 'duplicate_recipient', 'a draft too');

  clock.set(MONDAY + 30 * 24 * 3600 * 1000 - 1000);
  t.equal((await send(svc, s, { to })).body.error?.code, 'duplicate_recipient', 'still within 30 days');
  clock.set(MONDAY + 30 * 24 * 3600 * 1000);
  const later = await send(svc, s, { to });
  t.equal(later.status, 200, 'after 30 days, a new first message');
  t.not(later.body.thread.id, first.body.thread.id);

  for (let i = 0; i < 2; i++)
    t.equal((await send(svc, s, { to: HUMAN, test: true })).status, 200, `test send ${i + 1} to the human`);
  const box = await svc.call(s.apiKey, 'create_inbox', { username: 'tests', domain: s.domain, display_name: 'Tests' });
  for (let i = 0; i < 2; i++)
    t.equal(
      (await send(svc, s, { to: box.body.address, test: true })).status,
      200,
      `test send ${i + 1} to an inbox of the space`,
    );
});

t.test('key_daily_cap: messages created by a key per Paris day, until midnight', async (t) => {
  const s = await sender(svc);
  const capped = await svc.key(s.apiKey, { name: 'plafonnée', permissions: ['send'], daily_cap: 2 });
  for (let i = 0; i < 2; i++)
    t.equal(
      (await svc.call(capped.apiKey, 'send_email', { inbox_id: s.inboxId, to: recipient(), subject: 'A', text: 'B' }))
        .status,
      200,
    );
  const { hint, res } = await refusedUnchanged(t, s, {}, 'key_daily_cap', 429, capped.apiKey);
  t.same(hint, { retry_after_seconds: 15 * 3600 }, 'from 9:00 to midnight in Paris');
  t.equal(res.headers.get('retry-after'), String(15 * 3600));
  t.equal((await send(svc, s)).status, 200, 'another key is not capped');
  clock.set(Date.parse('2026-11-23T22:59:59.000Z'));
  t.same((await refusedUnchanged(t, s, {}, 'key_daily_cap', 429, capped.apiKey)).hint, { retry_after_seconds: 1 });
  clock.set(Date.parse('2026-11-23T23:00:00.000Z'));
  t.equal(
    (await svc.call(capped.apiKey, 'send_email', { inbox_id: s.inboxId, to: recipient(), subject: 'A', text: 'B' }))
      .status,
    200,
    'a new Paris day',
  );
});

t.test('inbox_suspended, domain_suspended, domain_not_verified', async (t) => {
  const s = await sender(svc);
  await suspendInbox(svc.rt, s.spaceId, s.inboxId, 'taux de rebonds de 7 %');
  const { res } = await refusedUnchanged(t, s, {}, 'inbox_suspended', 409);
  t.match(res.body.error.message, /taux de rebonds de 7 %.*request_inbox_review/);

  const d = await sender(svc);
  const domains = (await svc.call(d.apiKey, 'list_domains', {})).body.domains as {
    id: string;
    records: { name: string; label: string }[];
  }[];
  svc.dns.remove(domains[0]!.records.find((r) => r.label.startsWith('SPF'))!.name);
  t.equal(
    (await recheckDomain(svc.rt, d.spaceId, domains[0]!.id))?.status,
    'suspended',
    'the daily recheck finds SPF gone',
  );
  await refusedUnchanged(t, d, {}, 'domain_suspended', 409);

  const p = await sender(svc);
  // No tool takes a verified domain back to pending (an inbox lives only on a verified one): set it as a lost record would.
  await svc.rt.redis.hset(spaceKeys(p.spaceId).domain(p.domain), 'status', 'pending');
  await refusedUnchanged(t, p, {}, 'domain_not_verified', 409);
});

t.test('unresolved_placeholder: only {{unsubscribe_url}}, and only in the body', async (t) => {
  const s = await sender(svc);
  t.same((await refusedUnchanged(t, s, { text: 'Bonjour {{prenom}},' }, 'unresolved_placeholder', 422)).hint, {
    placeholder: '{{prenom}}',
    parameter: 'text',
  });
  t.same((await refusedUnchanged(t, s, { html: '<p>{{ ville }}</p>' }, 'unresolved_placeholder', 422)).hint, {
    placeholder: '{{ ville }}',
    parameter: 'html',
  });
  t.same(
    (await refusedUnchanged(t, s, { subject: 'Se désabonner : {{unsubscribe_url}}' }, 'unresolved_placeholder', 422))
      .hint?.parameter,
    'subject',
  );
  t.equal(
    (
      await send(svc, s, {
        text: 'Bonjour,\nSe désabonner : {{unsubscribe_url}}',
        html: '<a href="{{ unsubscribe_url }}">x</a>',
      })
    ).status,
    200,
  );
});

t.test('idempotency: same key and content replays the message; other content is a conflict', async (t) => {
  const s = await sender(svc);
  const body = { to: recipient(), idempotency_key: 'relance-42', metadata: { crm: 7 } };
  const first = await send(svc, s, body);
  t.equal(first.body.replayed, false);
  const before = await inboxState(svc, s);
  const again = await send(svc, s, body);
  t.equal(again.status, 200);
  t.equal(again.body.replayed, true);
  t.equal(again.body.message.id, first.body.message.id);
  t.equal(again.body.estimated_send_at, first.body.estimated_send_at);
  t.same(await inboxState(svc, s), before, 'nothing new created');
  t.match(again.body.message, { status: 'queued', metadata: { crm: 7 } });
  const { res } = await refusedUnchanged(t, s, { ...body, subject: 'Autre objet' }, 'idempotency_conflict', 409);
  t.match(res.body.error.message, /nouvelle clé/);
  const other = await sender(svc);
  t.equal((await send(svc, other, body)).body.replayed, false, 'keys are per space');
});

t.test('test_recipient_not_allowed: a test send goes to the space itself only', async (t) => {
  const s = await sender(svc);
  await refusedUnchanged(t, s, { test: true }, 'test_recipient_not_allowed', 422);
  t.equal((await send(svc, s, { to: HUMAN, test: true })).status, 200);
  t.equal((await send(svc, s, { to: s.address, test: true })).status, 200, 'an inbox of the space (its own address)');
});

t.test('queue_full: drafts plus queued reach ten times the daily maximum', async (t) => {
  const s = await sender(svc, { plan: 'petit' });
  for (let i = 0; i < 10; i++)
    t.equal((await send(svc, s, { requires_approval: i % 2 === 0 })).status, 200, `message ${i + 1} of 10`);
  const { hint, res } = await refusedUnchanged(t, s, {}, 'queue_full', 429);
  t.type(hint?.retry_after_seconds, 'number');
  t.equal(res.headers.get('retry-after'), String(hint?.retry_after_seconds));
  t.equal(
    (await refusedUnchanged(t, s, { requires_approval: true }, 'queue_full', 429)).res.body.error.code,
    'queue_full',
    'drafts count',
  );
  const [draft] = (await svc.call(s.apiKey, 'list_drafts', { limit: 1 })).body.items;
  await svc.call(s.apiKey, 'cancel_message', { message_id: draft.id });
  t.equal((await send(svc, s)).status, 200, 'a cancellation makes room');
});

t.test('secret_in_message: a key, a webhook secret or the start of a key of the space, anywhere', async (t) => {
  const s = await sender(svc);
  const prefix = s.apiKey.slice(0, 12);
  t.same((await refusedUnchanged(t, s, { text: `Voici la clé : ${s.apiKey}` }, 'secret_in_message', 422)).hint, {
    parameter: 'text',
  });
  t.same((await refusedUnchanged(t, s, { subject: `Clé ${prefix}` }, 'secret_in_message', 422)).hint, {
    parameter: 'subject',
  });
  t.same((await refusedUnchanged(t, s, { to_name: prefix }, 'secret_in_message', 422)).hint, { parameter: 'to_name' });
  t.same(
    (await refusedUnchanged(t, s, { html: '<p>whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQ=</p>' }, 'secret_in_message', 422))
      .hint,
    { parameter: 'html' },
  );
  t.same((await refusedUnchanged(t, s, { metadata: { cle: s.apiKey } }, 'secret_in_message', 422)).hint, {
    parameter: 'metadata',
  });
});

t.test(
  'encryption_unavailable: without MAILBOX_MASTER_KEY no unsubscribe link can be signed, so nothing is queued',
  async (t) => {
    const bare = await startService({ clock, env: { PLANS } });
    const { apiKey, spaceId } = await bare.space({ plan: 'pro', human: HUMAN });
    const inbox = await bare.call(apiKey, 'create_inbox', {
      username: 'agent',
      domain: bare.rt.config.commonDomain,
      display_name: 'Agent',
    });
    t.equal(inbox.status, 200, JSON.stringify(inbox.body));
    const s: Sender = {
      spaceId,
      apiKey,
      inboxId: inbox.body.id,
      address: inbox.body.address,
      domain: bare.rt.config.commonDomain,
    };
    const before = await inboxState(bare, s);
    for (const extra of [{}, { dry_run: true }, { requires_approval: true }, { test: true }]) {
      const res = await bare.call(apiKey, 'send_email', {
        inbox_id: s.inboxId,
        to: HUMAN,
        subject: 'Bonjour',
        text: 'Bonjour !',
        ...extra,
      });
      refused(t, res, 'encryption_unavailable', 503);
    }
    t.same(await inboxState(bare, s), before, 'nothing written');
    // A thread opened by mail received (receiving needs no key): the answer is refused alike.
    await (await startInbound(bare)).send({ from: recipient(), to: s.address, subject: 'Question', text: 'Bonjour ?' });
    const [thread] = (await bare.call(apiKey, 'list_threads', { inbox_id: s.inboxId })).body.items;
    const received = await inboxState(bare, s);
    refused(
      t,
      await bare.call(apiKey, 'reply_to_thread', { thread_id: thread.id, text: 'Avec plaisir.' }),
      'encryption_unavailable',
      503,
    );
    t.same(await inboxState(bare, s), received, 'nothing written by the refused reply');
  },
);

t.test('dry_run: every check runs, nothing is written, the would-be outcome is told', async (t) => {
  const s = await sender(svc);
  const before = await inboxState(svc, s);
  const queued = await send(svc, s, { dry_run: true, idempotency_key: 'essai' });
  t.equal(queued.status, 200);
  t.match(queued.body, {
    dry_run: true,
    status: 'queued',
    replayed: false,
    message: null,
    thread: null,
    estimated_send_at: '2026-11-23T08:00:00.000Z',
  });
  t.match(queued.body.inbox, { id: s.inboxId, queued: 0, drafts: 0 });
  const draft = await send(svc, s, { dry_run: true, requires_approval: true });
  t.match(draft.body, { status: 'draft', estimated_send_at: null });
  t.same(await inboxState(svc, s), before, 'counters, lists, journal, events, caps: unchanged');
  const mcp = await (
    await svc.mcp(s.apiKey)
  ).callTool({
    name: 'send_email',
    arguments: { inbox_id: s.inboxId, to: recipient(), subject: 'A', text: 'B', dry_run: true },
  });
  t.match(
    (mcp.content as { text: string }[])[0]!.text,
    /^Essai à blanc depuis la boîte inb_\w+ [\s\S]*\nEssai à blanc : rien n'a été écrit\. Le message serait mis en file ; départ estimé lundi 23 novembre à 9 h/,
  );

  const real = await send(svc, s, { idempotency_key: 'essai' });
  t.equal(real.body.replayed, false, 'a dry run does not take the idempotency key');

  const to = real.body.message.to;
  refused(t, await send(svc, s, { to, dry_run: true }), 'duplicate_recipient', 409);
  await svc.rt.redis.hset(spaceKeys(s.spaceId).space, 'plan', 'none');
  refused(t, await send(svc, s, { dry_run: true }), 'payment_required', 402);
  const capped = await svc.key(s.apiKey, { name: 'essais', permissions: ['send'], daily_cap: 1 });
  await svc.rt.redis.hset(spaceKeys(s.spaceId).space, 'plan', 'pro');
  for (let i = 0; i < 3; i++) {
    t.equal(
      (
        await svc.call(capped.apiKey, 'send_email', {
          inbox_id: s.inboxId,
          to: recipient(),
          subject: 'A',
          text: 'B',
          dry_run: true,
        })
      ).status,
      200,
      'dry runs use no cap',
    );
  }
});
