/** create_key, list_keys, revoke_key: every rule and refusal, over real HTTP. */
import t from 'tap';
import { startService } from '../helpers/service.js';

const svc = await startService({ env: { KEYS_CREATED_PER_24H: '30' } });

t.test('create_key: defaults, shown once, stored hashed', async (t) => {
  const { apiKey, spaceId } = await svc.space();
  const res = await svc.call(apiKey, 'create_key', { name: 'robot' });
  t.equal(res.status, 200);
  t.same(res.body.key.permissions, ['send', 'read'], 'send and read by default, never approve');
  t.equal(res.body.key.inbox_ids, null);
  t.equal(res.body.key.daily_cap, null);
  t.match(res.body.api_key, /^mbx_[0-9a-z]{20}_[0-9A-Za-z]{32}$/);
  t.equal(res.body.key.prefix, res.body.api_key.slice(0, 12));
  t.equal(res.body.mcp_url, `${svc.url}/mcp`);
  const list = await svc.call(apiKey, 'list_keys');
  t.notMatch(JSON.stringify(list.body), res.body.api_key.slice(13), 'list_keys never shows a secret');
  t.equal(list.body.keys.length, 2);
  const dump = JSON.stringify(await svc.rt.redis.hgetall(`mbx:{${spaceId}}:keys`));
  t.notMatch(dump, res.body.api_key.slice(13), 'the secret is not stored, only its hash');
  const own = await svc.call(res.body.api_key, 'get_settings');
  t.equal(own.status, 200, 'the new key answers');
});

t.test('create_key: options', async (t) => {
  const { apiKey } = await svc.space();
  const res = await svc.call(apiKey, 'create_key', { name: 'veilleur', permissions: ['read'], daily_cap: 10000 });
  t.equal(res.status, 200);
  t.same(res.body.key.permissions, ['read']);
  t.equal(res.body.key.daily_cap, 10000);
  const nulls = await svc.call(apiKey, 'create_key', { name: 'avec-nulls', permissions: null, daily_cap: null });
  t.equal(nulls.status, 200, 'null means absent for an optional parameter');
  t.same(nulls.body.key.permissions, ['send', 'read']);
});

t.test('create_key: invalid_argument names the parameter', async (t) => {
  const { apiKey } = await svc.space();
  const cases: [Record<string, unknown>, string][] = [
    [{}, 'name'],
    [{ name: 'x'.repeat(61) }, 'name'],
    [{ name: '   ' }, 'name'],
    [{ name: 'a\nb' }, 'name'],
    [{ name: 42 }, 'name'],
    [{ name: 'ok', colour: 'red' }, 'colour'],
    [{ name: 'ok', permissions: ['fly'] }, 'permissions'],
    [{ name: 'ok', permissions: [] }, 'permissions'],
    [{ name: 'ok', permissions: ['read', 'read'] }, 'permissions'],
    [{ name: 'ok', daily_cap: 0 }, 'daily_cap'],
    [{ name: 'ok', daily_cap: 10001 }, 'daily_cap'],
    [{ name: 'ok', daily_cap: 1.5 }, 'daily_cap'],
    [{ name: 'ok', inbox_ids: ['boite'] }, 'inbox_ids'],
    [{ name: 'ok', inbox_ids: [] }, 'inbox_ids'],
  ];
  for (const [body, parameter] of cases) {
    const res = await svc.call(apiKey, 'create_key', body);
    t.equal(res.status, 400, JSON.stringify(body));
    t.equal(res.body.error.code, 'invalid_argument');
    t.equal(res.body.error.hint.parameter, parameter, `names ${parameter}`);
    t.match(res.body.error.message, parameter);
  }
  t.equal((await svc.call(apiKey, 'list_keys')).body.keys.length, 1, 'nothing written on a refusal');
});

t.test('create_key: a 60-character name is accepted, names are unique without case', async (t) => {
  const { apiKey } = await svc.space();
  t.equal((await svc.call(apiKey, 'create_key', { name: 'é'.repeat(60) })).status, 200);
  t.equal((await svc.call(apiKey, 'create_key', { name: 'Ventes' })).status, 200);
  const taken = await svc.call(apiKey, 'create_key', { name: ' ventes ' });
  t.equal(taken.status, 409);
  t.equal(taken.body.error.code, 'key_name_taken');
  t.equal(taken.body.error.hint.name, 'ventes');
});

t.test('create_key: a revoked name can be used again', async (t) => {
  const { apiKey } = await svc.space();
  const first = await svc.key(apiKey, { name: 'temporaire' });
  t.equal((await svc.call(apiKey, 'revoke_key', { key_id: first.keyId, confirm: true })).status, 200);
  t.equal((await svc.call(apiKey, 'create_key', { name: 'temporaire' })).status, 200);
});

t.test('create_key: key_limit at 20 active keys', async (t) => {
  const { apiKey } = await svc.space();
  for (let i = 1; i < 20; i++) t.equal((await svc.call(apiKey, 'create_key', { name: `k${i}` })).status, 200);
  const over = await svc.call(apiKey, 'create_key', { name: 'k20' });
  t.equal(over.status, 409);
  t.equal(over.body.error.code, 'key_limit');
  const victim = (await svc.call(apiKey, 'list_keys')).body.keys.find((k: { name: string }) => k.name === 'k1');
  await svc.call(apiKey, 'revoke_key', { key_id: victim.id, confirm: true });
  t.equal((await svc.call(apiKey, 'create_key', { name: 'k20' })).status, 200, 'a revocation frees a place');
});

t.test('create_key: secret_in_message', async (t) => {
  const { apiKey } = await svc.space();
  const other = await svc.space();
  for (const name of [
    `clé ${apiKey}`,
    other.apiKey,
    `début ${apiKey.slice(0, 12)}`,
    'whsec_MDEyMzQ1Njc4OWFiY2RlZg==',
  ]) {
    const res = await svc.call(apiKey, 'create_key', { name: name.slice(0, 60) });
    t.equal(res.status, 422, name);
    t.equal(res.body.error.code, 'secret_in_message');
    t.equal(res.body.error.hint.parameter, 'name');
  }
});

t.test('create_key: space_unverified, forbidden, not_found', async (t) => {
  const unverified = await svc.space({ verified: false });
  const res = await svc.call(unverified.apiKey, 'create_key', { name: 'x' });
  t.equal(res.status, 403);
  t.equal(res.body.error.code, 'space_unverified');

  const { apiKey } = await svc.space();
  const sender = await svc.key(apiKey, { name: 'expéditeur' });
  const denied = await svc.call(sender.apiKey, 'create_key', { name: 'y' });
  t.equal(denied.status, 403);
  t.equal(denied.body.error.code, 'forbidden');

  const approver = await svc.key(apiKey, { name: 'valideur', permissions: ['approve'] });
  const escalate = await svc.call(approver.apiKey, 'create_key', { name: 'z', permissions: ['approve', 'send'] });
  t.equal(escalate.body.error.code, 'forbidden', 'a key gives only the permissions it has');
  t.match(escalate.body.error.message, 'envoi');

  const missing = await svc.call(apiKey, 'create_key', { name: 'w', inbox_ids: ['inb_0000000000aaaaaaaaaa'] });
  t.equal(missing.status, 404);
  t.equal(missing.body.error.code, 'not_found');
  t.equal(missing.body.error.hint.inbox_id, 'inb_0000000000aaaaaaaaaa');
  const other = await svc.space();
  const theirs = (
    await svc.call(other.apiKey, 'create_inbox', {
      username: `autre-${Date.now().toString(36)}`,
      display_name: 'Autre',
    })
  ).body.id;
  t.equal(
    (await svc.call(apiKey, 'create_key', { name: 'v', inbox_ids: [theirs] })).body.error.code,
    'not_found',
    "another space's inbox",
  );
});

t.test('create_key: inbox restriction', async (t) => {
  const { apiKey } = await svc.space({ plan: 'pro' });
  const inbox = async (username: string) =>
    (
      await svc.call(apiKey, 'create_inbox', {
        username: `${username}-${Date.now().toString(36)}`,
        display_name: 'Agent',
      })
    ).body.id as string;
  const [a, b] = [await inbox('alpha'), await inbox('beta')];
  const restricted = await svc.call(apiKey, 'create_key', {
    name: 'restreinte',
    permissions: ['read', 'approve'],
    inbox_ids: [a],
  });
  t.equal(restricted.status, 200);
  t.same(restricted.body.key.inbox_ids, [a]);
  const child = await svc.call(restricted.body.api_key, 'create_key', { name: 'héritière', permissions: ['read'] });
  t.same(child.body.key.inbox_ids, [a], 'a restricted key gives its own restriction by default');
  const wider = await svc.call(restricted.body.api_key, 'create_key', {
    name: 'plus-large',
    permissions: ['read'],
    inbox_ids: [a, b],
  });
  t.equal(wider.body.error.code, 'forbidden', 'and never more inboxes than it has');
  await svc.call(apiKey, 'delete_inbox', { inbox_id: b, confirm: true });
  const deleted = await svc.call(apiKey, 'create_key', { name: 'vers-supprimée', inbox_ids: [b] });
  t.equal(deleted.body.error.code, 'not_found', 'a deleted inbox cannot be opened to a key');
});

t.test('create_key: space_rate_limited after the 24 h budget', async (t) => {
  const limited = await startService({ env: { KEYS_CREATED_PER_24H: '2' } });
  const { apiKey } = await limited.space();
  const a = await limited.key(apiKey, { name: 'a' });
  await limited.call(apiKey, 'create_key', { name: 'b' });
  await limited.call(apiKey, 'revoke_key', { key_id: a.keyId, confirm: true });
  const res = await limited.call(apiKey, 'create_key', { name: 'c' });
  t.equal(res.status, 429);
  t.equal(res.body.error.code, 'space_rate_limited');
  t.ok(res.body.error.hint.retry_after_seconds > 86000 && res.body.error.hint.retry_after_seconds <= 86400);
  t.equal(res.headers.get('retry-after'), String(res.body.error.hint.retry_after_seconds));
  const closed = await startService({ env: { KEYS_CREATED_PER_24H: '0' } });
  const space = await closed.space();
  const none = await closed.call(space.apiKey, 'create_key', { name: 'a' });
  t.equal(none.body.error.code, 'space_rate_limited', 'a zero budget refuses every creation');
  t.equal(none.body.error.hint.retry_after_seconds, 86400);
});

t.test('revoke_key: refusals, and a revoked key fails at once on every front end', async (t) => {
  const { apiKey, keyId } = await svc.space();
  const robot = await svc.key(apiKey, { name: 'robot', permissions: ['read'] });
  const second = await startService();
  t.equal((await second.call(robot.apiKey, 'list_keys')).status, 200, 'answers on the second front end');

  const own = await svc.call(apiKey, 'revoke_key', { key_id: keyId, confirm: true });
  t.equal(own.status, 409);
  t.equal(own.body.error.code, 'own_access');
  const noConfirm = await svc.call(apiKey, 'revoke_key', { key_id: robot.keyId, confirm: false });
  t.equal(noConfirm.body.error.code, 'invalid_argument');
  t.equal(noConfirm.body.error.hint.parameter, 'confirm');
  const unknown = await svc.call(apiKey, 'revoke_key', { key_id: 'key_0000000000aaaaaaaaaa', confirm: true });
  t.equal(unknown.body.error.code, 'not_found');
  const reader = await svc.key(apiKey, { name: 'lecteur', permissions: ['read'] });
  t.equal(
    (await svc.call(reader.apiKey, 'revoke_key', { key_id: robot.keyId, confirm: true })).body.error.code,
    'forbidden',
  );

  const done = await svc.call(apiKey, 'revoke_key', { key_id: robot.keyId, confirm: true });
  t.same(done.body, { kind: 'key', name: 'robot', revoked: robot.keyId });
  for (const front of [svc, second]) {
    const res = await front.call(robot.apiKey, 'list_keys');
    t.equal(res.status, 401);
    t.equal(res.body.error.code, 'unauthorized');
  }
  t.equal(
    (await svc.call(apiKey, 'revoke_key', { key_id: robot.keyId, confirm: true })).body.error.code,
    'not_found',
    'only once',
  );

  const other = await svc.space();
  const foreign = await svc.call(other.apiKey, 'revoke_key', { key_id: reader.keyId, confirm: true });
  t.equal(foreign.body.error.code, 'not_found', "a key of one space never reaches another's");
  t.equal((await svc.call(reader.apiKey, 'list_keys')).status, 200);
});

t.test('the journal tells key creations and revocations with their author', async (t) => {
  const { apiKey } = await svc.space();
  const robot = await svc.key(apiKey, { name: 'robot', permissions: ['read'] });
  await svc.call(apiKey, 'revoke_key', { key_id: robot.keyId, confirm: true });
  const journal = await svc.call(apiKey, 'list_events');
  const texts = journal.body.events.map((e: { text: string }) => e.text);
  t.same(texts, ['Révocation de la clé « robot »', 'Création de la clé « robot » (lecture)', "Ouverture de l'espace"]);
  t.same(journal.body.events[0].actor, { kind: 'agent', name: 'admin', you: true });
  t.same(journal.body.events[2].actor, { kind: 'service', name: 'Mailbox', you: false });
});
