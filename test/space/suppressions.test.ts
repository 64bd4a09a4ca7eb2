/** list_suppressions, add_suppression, remove_suppression: values, pages, query, dead addresses, locks. */
import t from 'tap';
import { deadAddressKey } from '../../actors/dead-addresses.js';
import { unsubscribeRecipient } from '../../actors/suppression.js';
import { MASTER_KEY } from '../helpers/domains.js';
import { mondayMorning, startService } from '../helpers/service.js';

const clock = mondayMorning();
const svc = await startService({ clock, env: { MAILBOX_MASTER_KEY: MASTER_KEY } });

t.test('add_suppression: address or domain, manual, journaled; list newest first', async (t) => {
  const { apiKey, keyId } = await svc.space();
  const added = await svc.call(apiKey, 'add_suppression', {
    value: ' Paul@Exemple.FR ',
    reason: 'a demandé par téléphone',
  });
  t.equal(added.status, 200);
  t.match(added.body, {
    created: true,
    entry: {
      value: 'paul@exemple.fr',
      kind: 'address',
      reason: 'manual',
      scope: 'space',
      source: keyId,
      note: 'a demandé par téléphone',
    },
  });
  t.match(added.body.entry.id, /^sup_/);
  clock.advance(1000);
  const domain = await svc.call(apiKey, 'add_suppression', { value: 'concurrent.fr' });
  t.match(domain.body.entry, { value: '@concurrent.fr', kind: 'domain', note: null });
  t.equal(
    (await svc.call(apiKey, 'add_suppression', { value: '@concurrent.fr' })).body.created,
    false,
    'already there',
  );
  t.equal((await svc.call(apiKey, 'add_suppression', { value: 'pas une valeur' })).body.error.code, 'invalid_argument');
  const list = await svc.call(apiKey, 'list_suppressions', {});
  t.same(
    list.body.items.map((e: { value: string }) => e.value),
    ['@concurrent.fr', 'paul@exemple.fr'],
  );
  t.equal(list.body.next_cursor, null);
  t.equal(list.body.dead_address, null);
  const kinds = (await svc.call(apiKey, 'list_events', {})).body.events.map((l: { kind: string }) => l.kind);
  t.ok(kinds.includes('suppression.added'));
  const reader = await svc.key(apiKey, { name: 'lecteur', permissions: ['read'] });
  t.equal(
    (await svc.call(reader.apiKey, 'add_suppression', { value: 'x@exemple.fr' })).body.error.code,
    'forbidden',
    'send or approve',
  );
  t.equal((await svc.call(reader.apiKey, 'list_suppressions', {})).status, 200, 'read lists');
});

t.test('a manual block refuses the send; remove_suppression lifts it', async (t) => {
  const { apiKey } = await svc.space();
  const inbox = await svc.call(apiKey, 'create_inbox', { username: `b-${Date.now()}`, display_name: 'Boîte' });
  await svc.call(apiKey, 'add_suppression', { value: 'humain@exemple.fr' });
  const refused = await svc.call(apiKey, 'send_email', {
    inbox_id: inbox.body.id,
    to: 'humain@exemple.fr',
    subject: 'S',
    text: 'T',
  });
  t.equal(refused.body.error.code, 'recipient_suppressed');
  const removed = await svc.call(apiKey, 'remove_suppression', { value: 'HUMAIN@exemple.fr' });
  t.equal(removed.status, 200);
  t.equal(removed.body.removed.value, 'humain@exemple.fr');
  t.equal((await svc.call(apiKey, 'remove_suppression', { value: 'humain@exemple.fr' })).body.error.code, 'not_found');
  const sendKey = await svc.key(apiKey, { name: 'envoi', permissions: ['send'] });
  t.equal(
    (await svc.call(sendKey.apiKey, 'remove_suppression', { value: 'x@exemple.fr' })).body.error.code,
    'forbidden',
    'approve only',
  );
});

t.test('an unsubscription is locked: suppression_locked; a manual block cannot downgrade it', async (t) => {
  const { apiKey, spaceId } = await svc.space();
  await unsubscribeRecipient(svc.rt, spaceId, svc.rt.ids.next('message'), 'parti@exemple.fr');
  const res = await svc.call(apiKey, 'remove_suppression', { value: 'parti@exemple.fr' });
  t.equal(res.status, 409);
  t.equal(res.body.error.code, 'suppression_locked');
  const again = await svc.call(apiKey, 'add_suppression', { value: 'parti@exemple.fr' });
  t.match(again.body, { created: false, entry: { reason: 'unsubscribe' } });
});

t.test('pages, query and the dead-address test', async (t) => {
  const { apiKey } = await svc.space();
  for (let i = 0; i < 7; i++) {
    clock.advance(1000);
    await svc.call(apiKey, 'add_suppression', { value: `p${i}@${i % 2 ? 'impair' : 'pair'}.fr` });
  }
  const seen: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await svc.call(apiKey, 'list_suppressions', { limit: 3, ...(cursor ? { cursor } : {}) });
    t.ok(page.body.items.length <= 3);
    seen.push(...page.body.items.map((e: { value: string }) => e.value));
    cursor = page.body.next_cursor ?? undefined;
  } while (cursor);
  t.same(seen, [
    'p6@pair.fr',
    'p5@impair.fr',
    'p4@pair.fr',
    'p3@impair.fr',
    'p2@pair.fr',
    'p1@impair.fr',
    'p0@pair.fr',
  ]);
  const odd = await svc.call(apiKey, 'list_suppressions', { query: 'impair', limit: 2 });
  t.same(
    odd.body.items.map((e: { value: string }) => e.value),
    ['p5@impair.fr', 'p3@impair.fr'],
  );
  const rest = await svc.call(apiKey, 'list_suppressions', { query: 'impair', limit: 2, cursor: odd.body.next_cursor });
  t.same(
    rest.body.items.map((e: { value: string }) => e.value),
    ['p1@impair.fr'],
  );
  t.equal(rest.body.next_cursor, null);
  const foreign = await svc.call(apiKey, 'list_suppressions', { query: 'pair', cursor: odd.body.next_cursor });
  t.equal(foreign.body.error.code, 'invalid_argument', 'a cursor of another query');
  t.equal((await svc.call(apiKey, 'list_suppressions', { limit: 101 })).body.error.code, 'invalid_argument');

  const dead = 'mort@ailleurs.fr';
  await svc.rt.redis.hset(deadAddressKey(dead), dead, JSON.stringify({ at: clock.now() }));
  const test = await svc.call(apiKey, 'list_suppressions', { query: 'Mort@Ailleurs.fr' });
  t.same(test.body.dead_address, { value: dead, since: new Date(clock.now()).toISOString() });
  t.same(test.body.items, []);
  t.equal((await svc.call(apiKey, 'list_suppressions', { query: 'vivant@ailleurs.fr' })).body.dead_address, null);
});
