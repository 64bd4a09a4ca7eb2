/** create_inbox: the inbox object field by field, warm-up, and every rule and refusal, over real HTTP. */
import { randomBytes } from 'node:crypto';
import t from 'tap';
import { globalKeys } from '../../src/redis/keys.js';
import { addDomain, MASTER_KEY, verifiedDomain } from '../helpers/domains.js';
import { mondayMorning, startService } from '../helpers/service.js';

const clock = mondayMorning();
const svc = await startService({ clock, env: { MAILBOX_MASTER_KEY: MASTER_KEY } });
const common = svc.rt.config.commonDomain;
const DAY = 24 * 3600 * 1000;
const START = clock.now();

/** Common-domain addresses are global and never given back: every test name is new. */
const name = (prefix = 'agent'): string => `${prefix}-${randomBytes(3).toString('hex')}`;

const create = (key: string, body: Record<string, unknown>) =>
  svc.call(key, 'create_inbox', { display_name: 'Agent', ...body });

t.test('the inbox object is exactly the one of docs/contract.md, Part 2', async (t) => {
  const { apiKey } = await svc.space();
  const username = name('ventes');
  const res = await create(apiKey, { username, display_name: 'Service des ventes' });
  t.equal(res.status, 200, JSON.stringify(res.body));
  const inbox = res.body;
  // The inbox object, and the answer's notice (docs/tools.md, "What the model reads": what the French text tells beyond the fields).
  t.same(
    Object.keys(inbox).sort(),
    [
      'address',
      'display_name',
      'drafts',
      'id',
      'next_send_at',
      'notice',
      'queued',
      'quota',
      'send_window',
      'shared',
      'status',
      'status_changed_at',
      'status_reason',
      'suspension',
      'warmup',
    ].sort(),
  );
  t.match(inbox.notice, /^Elle reçoit dès maintenant\. Elle ne répond qu'aux personnes qui lui écrivent d'abord/);
  t.match(inbox.id, /^inb_[0-9a-z]{20}$/);
  t.equal(inbox.address, `${username}@${common}`);
  t.equal(inbox.display_name, 'Service des ventes');
  t.equal(inbox.drafts, 0);
  t.equal(inbox.queued, 0);
  t.equal(inbox.next_send_at, null);
  t.same(inbox.quota, { daily_quota: 5, daily_max: 20, sent_today: 0, remaining_today: 5 });
  t.equal(inbox.send_window, 'du lundi au vendredi, de 9 h à 18 h (heure de Paris), hors jours fériés');
  t.equal(inbox.shared, true, 'an inbox of the common domain is shared');
  t.equal(inbox.status, 'active');
  t.equal(inbox.status_changed_at, null, 'no change of state since creation');
  t.equal(inbox.status_reason, null);
  t.equal(inbox.suspension, null);
  t.same(inbox.warmup, { week: 1, step: 5, steps: [5, 10, 15, 20], finished: false });

  const client = await svc.mcp(apiKey);
  const mcp = await client.callTool({
    name: 'create_inbox',
    arguments: { username: name('mcp'), display_name: 'Par MCP' },
  });
  t.notOk(mcp.isError, JSON.stringify(mcp.content));
  t.same(Object.keys(mcp.structuredContent!).sort(), Object.keys(inbox).sort(), 'the same object over MCP');
  t.match(
    (mcp.content as { text: string }[])[0]!.text,
    /^Boîte créée : mcp-[0-9a-f]+@.+\.\n[\s\S]*\nBoîte du domaine commun : elle n'écrit qu'aux personnes qui lui ont écrit d'abord/,
  );

  const journal = await svc.call(apiKey, 'list_events', { inbox_id: inbox.id });
  t.equal(journal.body.events[0].kind, 'inbox.created');
  t.equal(journal.body.events[0].text, `Création de la boîte « ${inbox.address} »`);
  const byDomain = await svc.call(apiKey, 'list_events', { domain: common });
  t.ok(
    byDomain.body.events.some((e: { inbox_id?: string }) => e.inbox_id === inbox.id),
    'the line is found by its domain too',
  );
  const claim = JSON.parse((await svc.rt.redis.get(globalKeys.address(inbox.address)))!);
  t.match(claim, { inbox_id: inbox.id, state: 'active' }, 'the address is claimed for the SMTP side');
});

t.test('warm-up steps follow the weeks since creation, capped by the plan', async (t) => {
  const { apiKey } = await svc.space();
  const { body: inbox } = await create(apiKey, { username: name() });
  const status = async () => (await svc.call(apiKey, 'inbox_status', { inbox_id: inbox.id })).body.inbox;
  const seen: unknown[] = [];
  for (const week of [1, 2, 3, 4, 9]) {
    clock.set(START + (week - 1) * 7 * DAY);
    const now = await status();
    seen.push([
      now.warmup.week,
      now.warmup.step,
      now.quota.daily_quota,
      now.quota.remaining_today,
      now.warmup.finished,
    ]);
  }
  clock.set(START);
  t.same(seen, [
    [1, 5, 5, 5, false],
    [2, 10, 10, 10, false],
    [3, 15, 15, 15, false],
    [4, 20, 20, 20, true],
    [9, 20, 20, 20, true],
  ]);

  const small = await startService({
    clock,
    env: { PLANS: JSON.stringify({ petit: { inbox_cap: 2, daily_max: 12 } }) },
  });
  const space = await small.space({ plan: 'petit' });
  const res = await small.call(space.apiKey, 'create_inbox', { username: name(), display_name: 'Petit' });
  t.same(res.body.warmup.steps, [5, 10, 12, 12], 'no step above the daily maximum');
  t.equal(res.body.quota.daily_max, 12);
});

t.test('username: character set, dots, length on the common domain', async (t) => {
  const { apiKey } = await svc.space({ plan: 'scale' });
  for (const username of ['Ventes', 'ventes+1', 'é', '', '.ventes', 'ventes.', 'ven..tes', 'ab', 'a'.repeat(33)]) {
    const res = await create(apiKey, { username });
    t.equal(res.status, 400, `${JSON.stringify(username)} refused`);
    t.equal(res.body.error.code, 'invalid_argument');
    t.same(res.body.error.hint, { parameter: 'username' });
  }
  for (const username of [
    name('a.b_c'),
    `${'x'.repeat(26)}-1234`.slice(0, 32),
    'a1-' + randomBytes(2).toString('hex'),
  ]) {
    const res = await create(apiKey, { username });
    t.equal(res.status, 200, `${username} accepted: ${JSON.stringify(res.body)}`);
  }
});

t.test('reserved_username: service addresses everywhere, more on the common domain', async (t) => {
  const { apiKey } = await svc.space({ plan: 'pro' });
  for (const username of [
    'postmaster',
    'abuse',
    'mailer-daemon',
    'no-reply',
    'noreply',
    'bounces',
    'support',
    'admin',
    'security',
  ]) {
    const res = await create(apiKey, { username });
    t.equal(res.status, 422, username);
    t.equal(res.body.error.code, 'reserved_username');
  }
  const own = await verifiedDomain(svc, apiKey);
  t.equal(
    (await create(apiKey, { username: 'postmaster', domain: own.domain })).body.error.code,
    'reserved_username',
    'postmaster on an own domain',
  );
  const support = await create(apiKey, { username: 'support', domain: own.domain });
  t.equal(support.status, 200, 'support is free on an own domain');
  t.equal(support.body.shared, false);
  const short = await create(apiKey, { username: 'a', domain: own.domain });
  t.equal(short.status, 200, 'one character is enough on an own domain');
});

t.test('address_taken: one address, one inbox; never reassigned on the common domain', async (t) => {
  const a = await svc.space();
  const b = await svc.space();
  const username = name('unique');
  const first = await create(a.apiKey, { username });
  t.equal(first.status, 200);
  const again = await create(a.apiKey, { username });
  t.equal(again.status, 409);
  t.equal(again.body.error.code, 'address_taken');
  t.equal((await create(b.apiKey, { username })).body.error.code, 'address_taken', 'from another space too');

  t.equal((await svc.call(a.apiKey, 'delete_inbox', { inbox_id: first.body.id, confirm: true })).status, 200);
  const claim = JSON.parse((await svc.rt.redis.get(globalKeys.address(first.body.address)))!);
  t.equal(claim.state, 'deleted', 'the claim stays, marked deleted: the SMTP side stops accepting it');
  t.equal((await create(a.apiKey, { username })).body.error.code, 'address_taken', 'not even to the same space');
  t.equal((await create(b.apiKey, { username })).body.error.code, 'address_taken');
});

t.test('an address on an own domain is free again after deletion', async (t) => {
  const { apiKey } = await svc.space({ plan: 'pro' });
  const own = await verifiedDomain(svc, apiKey);
  const first = await create(apiKey, { username: 'contact', domain: own.domain });
  t.equal(first.status, 200);
  t.equal((await svc.call(apiKey, 'delete_inbox', { inbox_id: first.body.id, confirm: true })).status, 200);
  t.equal(await svc.rt.redis.get(globalKeys.address(`contact@${own.domain}`)), null, 'the claim is released');
  const again = await create(apiKey, { username: 'contact', domain: own.domain });
  t.equal(again.status, 200);
  t.not(again.body.id, first.body.id);
});

t.test(
  'a delete_inbox that stopped before its claim: the next creation finishes it (own domain free, common domain retired)',
  async (t) => {
    const { apiKey } = await svc.space({ plan: 'pro' });
    const own = await verifiedDomain(svc, apiKey);
    const crashed = async (body: Record<string, unknown>) => {
      const made = await create(apiKey, body);
      const key = globalKeys.address(made.body.address);
      const claim = (await svc.rt.redis.get(key))!;
      t.equal((await svc.call(apiKey, 'delete_inbox', { inbox_id: made.body.id, confirm: true })).status, 200);
      await svc.rt.redis.set(key, claim); // as if the process died between the inbox's script and its claim
      return { made, key, claim };
    };
    const mine = await crashed({ username: 'accueil', domain: own.domain });
    const again = await create(apiKey, { username: 'accueil', domain: own.domain });
    t.equal(again.status, 200, JSON.stringify(again.body));
    t.not(again.body.id, mine.made.body.id);
    t.equal(JSON.parse((await svc.rt.redis.get(mine.key))!).inbox_id, again.body.id);

    const username = name('retraite');
    const shared = await crashed({ username, domain: common });
    const refused = await create(apiKey, { username, domain: common });
    t.equal(refused.body.error?.code, 'address_taken', 'a common-domain address is never given again');
    t.same(
      JSON.parse((await svc.rt.redis.get(shared.key))!),
      { ...JSON.parse(shared.claim), state: 'deleted' },
      'as delete_inbox leaves it',
    );
  },
);

t.test('two concurrent create_inbox for one address: one wins, one gets address_taken', async (t) => {
  const a = await svc.space();
  const b = await svc.space();
  const username = name('course');
  const results = await Promise.all([create(a.apiKey, { username }), create(b.apiKey, { username })]);
  t.same(results.map((r) => r.status).sort(), [200, 409]);
  t.equal(results.find((r) => r.status === 409)!.body.error.code, 'address_taken');
});

t.test('concurrent creations never exceed the plan cap, and refused ones give their address back', async (t) => {
  const { apiKey } = await svc.space({ plan: 'starter' });
  const usernames = Array.from({ length: 8 }, () => name('rush'));
  const results = await Promise.all(usernames.map((username) => create(apiKey, { username })));
  const ok = results.filter((r) => r.status === 200);
  t.equal(ok.length, 3, 'starter allows 3 inboxes');
  for (const refused of results.filter((r) => r.status !== 200)) {
    t.equal(refused.body.error.code, 'inbox_limit');
    t.same(refused.body.error.hint, { inbox_count: 3 });
  }
  t.equal((await svc.call(apiKey, 'list_inboxes', {})).body.items.length, 3);
  const loser = usernames[results.findIndex((r) => r.status !== 200)]!;
  const other = await svc.space();
  t.equal((await create(other.apiKey, { username: loser })).status, 200, 'a refused address was not kept');
});

t.test('inbox_creation_limit: twice the cap in 7 days, deleted inboxes counting', async (t) => {
  const { apiKey } = await svc.space({ plan: 'starter' });
  const made = async () => {
    const res = await create(apiKey, { username: name('tour') });
    t.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.id as string;
  };
  const remove = async (id: string) =>
    t.equal((await svc.call(apiKey, 'delete_inbox', { inbox_id: id, confirm: true })).status, 200);
  for (const id of [await made(), await made(), await made()]) await remove(id);
  const kept = [await made(), await made(), await made()];
  await remove(kept[0]!);
  clock.advance(3 * DAY);
  const refused = await create(apiKey, { username: name('tour') });
  t.equal(refused.status, 429);
  t.equal(refused.body.error.code, 'inbox_creation_limit');
  t.same(
    refused.body.error.hint,
    { retry_after_seconds: 4 * 24 * 3600 },
    'until the oldest creation leaves the 7 days',
  );
  t.equal(refused.headers.get('retry-after'), String(4 * 24 * 3600));
  clock.advance(4 * DAY);
  t.equal((await create(apiKey, { username: name('tour') })).status, 200, 'allowed again 7 days after');
  clock.set(START);
});

t.test('payment_required: without a plan, the first inbox is free, not the second', async (t) => {
  const { apiKey } = await svc.space({ plan: 'none' });
  t.equal((await create(apiKey, { username: name() })).status, 200);
  const second = await create(apiKey, { username: name() });
  t.equal(second.status, 402);
  t.equal(second.body.error.code, 'payment_required');
  t.match(second.body.error.message, /une deuxième boîte demande un abonnement/);
});

t.test('domain_not_allowed, domain_not_verified', async (t) => {
  const { apiKey } = await svc.space({ plan: 'pro' });
  const stranger = await create(apiKey, { username: name(), domain: 'ailleurs.test' });
  t.equal(stranger.status, 422);
  t.equal(stranger.body.error.code, 'domain_not_allowed');
  t.same(stranger.body.error.hint, { allowed_domains: [common] });

  const other = await svc.space({ plan: 'pro' });
  const theirs = await verifiedDomain(svc, other.apiKey);
  t.equal(
    (await create(apiKey, { username: name(), domain: theirs.domain })).body.error.code,
    'domain_not_allowed',
    "another space's domain",
  );

  const pending = await addDomain(svc, apiKey);
  const early = await create(apiKey, { username: name(), domain: pending.domain });
  t.equal(early.status, 409);
  t.equal(early.body.error.code, 'domain_not_verified');
  const mine = await verifiedDomain(svc, apiKey);
  const hint = (await create(apiKey, { username: name(), domain: 'ailleurs.test' })).body.error.hint;
  t.same(hint, { allowed_domains: [mine.domain, common] }, 'own verified domains first');
  const byDefault = await create(apiKey, { username: name() });
  t.equal(byDefault.body.address.split('@')[1], mine.domain, 'no domain given: the first own verified one');
  const upper = await create(apiKey, { username: name(), domain: `${common.toUpperCase()}.` });
  t.equal(upper.status, 200, 'a domain is compared in its normal form');
  t.equal(upper.body.shared, true);
});

t.test('no_sending_domain: no own verified domain and no common domain', async (t) => {
  const bare = await startService({ clock, env: { COMMON_DOMAIN: '', MAILBOX_MASTER_KEY: MASTER_KEY } });
  t.equal(bare.rt.config.commonDomain, '');
  const { apiKey } = await bare.space({ plan: 'pro' });
  for (const body of [{}, { domain: 'ailleurs.test' }]) {
    const res = await bare.call(apiKey, 'create_inbox', { username: name(), display_name: 'Agent', ...body });
    t.equal(res.status, 409);
    t.equal(res.body.error.code, 'no_sending_domain');
  }
  const pending = await addDomain(bare, apiKey);
  t.equal(
    (await bare.call(apiKey, 'create_inbox', { username: name(), display_name: 'A' })).body.error.code,
    'no_sending_domain',
    'a pending domain is no sending domain',
  );
  t.equal(
    (await bare.call(apiKey, 'create_inbox', { username: name(), display_name: 'A', domain: pending.domain })).body
      .error.code,
    'domain_not_verified',
  );
  const own = await verifiedDomain(bare, apiKey);
  const res = await bare.call(apiKey, 'create_inbox', { username: 'hello', display_name: 'A' });
  t.equal(res.status, 200, JSON.stringify(res.body));
  t.equal(res.body.address, `hello@${own.domain}`);
});

t.test('permissions, verified space, restricted keys', async (t) => {
  const { apiKey } = await svc.space();
  const reader = await svc.key(apiKey, { name: 'lecteur', permissions: ['read'] });
  const denied = await create(reader.apiKey, { username: name() });
  t.equal(denied.status, 403);
  t.equal(denied.body.error.code, 'forbidden');

  const { body: inbox } = await create(apiKey, { username: name() });
  const restricted = await svc.key(apiKey, {
    name: 'restreinte',
    permissions: ['manage_inboxes', 'read'],
    inbox_ids: [inbox.id],
  });
  const refused = await create(restricted.apiKey, { username: name() });
  t.equal(refused.status, 403);
  t.equal(refused.body.error.code, 'forbidden');
  t.match(refused.body.error.message, /restreinte/);

  const unverified = await svc.space({ verified: false });
  const res = await create(unverified.apiKey, { username: name() });
  t.equal(res.status, 403);
  t.equal(res.body.error.code, 'space_unverified');
});

t.test('display_name: length, one line, no secret; unknown parameters', async (t) => {
  const { apiKey } = await svc.space({ plan: 'pro' });
  const long = await create(apiKey, { username: name(), display_name: 'x'.repeat(101) });
  t.equal(long.status, 400);
  t.same(long.body.error.hint, { parameter: 'display_name' });
  t.equal((await create(apiKey, { username: name(), display_name: 'x'.repeat(100) })).status, 200, '100 characters');
  const twoLines = await create(apiKey, { username: name(), display_name: 'Ventes\r\nBcc: tous@exemple.fr' });
  t.equal(twoLines.body.error.code, 'invalid_argument', 'no header injection through the display name');
  const secret = await create(apiKey, { username: name(), display_name: `Agent ${apiKey}` });
  t.equal(secret.status, 422);
  t.equal(secret.body.error.code, 'secret_in_message');
  t.same(secret.body.error.hint, { parameter: 'display_name' });
  const prefix = await create(apiKey, { username: name(), display_name: `Clé ${apiKey.slice(0, 12)}` });
  t.equal(prefix.body.error.code, 'secret_in_message', 'the start of a key of the space too');
  const unknown = await create(apiKey, { username: name(), password: 'x' });
  t.equal(unknown.status, 400);
  t.same(unknown.body.error.hint, { parameter: 'password' });
});
