/**
 * Audiences and contacts (docs/contract.md, Decision 11): create_audience, add_contacts (skips counted by reason,
 * examples), remove_contacts, list_audiences, list_contacts (an audience's in order of addition, the
 * space's by address, query, pages), delete_audience; permissions, refusals, other spaces' ids.
 */
import t from 'tap';
import { markDeadAddress } from '../../actors/dead-addresses.js';
import { MASTER_KEY } from '../helpers/domains.js';
import { startService } from '../helpers/service.js';

const svc = await startService({ env: { MAILBOX_MASTER_KEY: MASTER_KEY } });

const codeOf = (res: { body: { error?: { code: string } } }) => res.body.error?.code;

t.test('create, add with skips by reason, list, page, remove, delete', async (t) => {
  const s = await svc.space();
  const created = await svc.call(s.apiKey, 'create_audience', { name: 'Prospects Lyon' });
  t.equal(created.status, 200, JSON.stringify(created.body));
  const audienceId = created.body.audience.id;
  t.match(audienceId, /^aud_/);
  t.same(created.body.audience.contact_count, 0);

  await svc.call(s.apiKey, 'add_suppression', { value: 'bloque@exemple.test' });
  await markDeadAddress(svc.rt, 'morte@exemple.test', {
    status_code: '550',
    space_id: 'spc_autre',
    message_id: 'msg_x',
    at: new Date().toISOString(),
  });
  const added = await svc.call(s.apiKey, 'add_contacts', {
    audience_id: audienceId,
    contacts: [
      { email: ' Lea@Exemple.test ', name: 'Léa Martin', fields: { ville: 'Lyon' } },
      { email: 'paul@exemple.test' },
      { email: 'pas une adresse' },
      { email: 'lea@exemple.test' },
      { email: 'bloque@exemple.test' },
      { email: 'morte@exemple.test' },
      { email: 'zoe@autre.test', name: 'Zoé' },
    ],
  });
  t.equal(added.status, 200, JSON.stringify(added.body));
  t.same(added.body.added, 3);
  t.same(added.body.skipped, { invalid: 1, duplicate: 1, suppressed: 1, dead_address: 1 });
  t.same(added.body.examples.map((e: { reason: string }) => e.reason).sort(), [
    'dead_address',
    'duplicate',
    'invalid',
    'suppressed',
  ]);
  const again = await svc.call(s.apiKey, 'add_contacts', {
    audience_id: audienceId,
    contacts: [{ email: 'paul@exemple.test', name: 'Paul' }],
  });
  t.same(again.body.skipped.duplicate, 1, 'already in the audience');

  const listed = await svc.call(s.apiKey, 'list_contacts', { audience_id: audienceId });
  t.same(
    listed.body.items,
    [
      { email: 'lea@exemple.test', name: 'Léa Martin', fields: { ville: 'Lyon' } },
      { email: 'paul@exemple.test', name: null, fields: {} },
      { email: 'zoe@autre.test', name: 'Zoé', fields: {} },
    ],
    'in order of addition',
  );
  const first = await svc.call(s.apiKey, 'list_contacts', { audience_id: audienceId, limit: 2 });
  t.equal(first.body.items.length, 2);
  const second = await svc.call(s.apiKey, 'list_contacts', {
    audience_id: audienceId,
    limit: 2,
    cursor: first.body.next_cursor,
  });
  t.same(second.body, {
    items: [{ email: 'zoe@autre.test', name: 'Zoé', fields: {} }],
    next_cursor: null,
    notice: null,
  });
  t.same(
    (await svc.call(s.apiKey, 'list_contacts', { query: 'zo' })).body.items.map((c: { email: string }) => c.email),
    ['zoe@autre.test'],
    'by name, across the space',
  );
  t.same(
    (await svc.call(s.apiKey, 'list_contacts', { query: 'exemple' })).body.items.map((c: { email: string }) => c.email),
    ['lea@exemple.test', 'paul@exemple.test'],
    'by address, sorted',
  );
  const spaceFirst = await svc.call(s.apiKey, 'list_contacts', { limit: 1 });
  t.same(
    (await svc.call(s.apiKey, 'list_contacts', { limit: 5, cursor: spaceFirst.body.next_cursor })).body.items.length,
    2,
    "the space's second page",
  );
  t.equal(
    codeOf(await svc.call(s.apiKey, 'list_contacts', { audience_id: audienceId, cursor: spaceFirst.body.next_cursor })),
    'invalid_argument',
    "another listing's cursor",
  );

  t.same((await svc.call(s.apiKey, 'list_audiences', {})).body.items, [{ ...created.body.audience, contact_count: 3 }]);
  t.same(
    (
      await svc.call(s.apiKey, 'remove_contacts', {
        audience_id: audienceId,
        emails: ['PAUL@exemple.test', 'absent@exemple.test'],
      })
    ).body,
    { removed: 1 },
  );
  const journal = await svc.call(s.apiKey, 'list_events', { audience_id: audienceId });
  t.same(
    journal.body.events.map((e: { kind: string }) => e.kind),
    ['contacts.removed', 'contacts.added', 'contacts.added', 'audience.created'],
  );
  t.match(journal.body.events[2].text, /Ajout de 3 contacts à l'audience « Prospects Lyon », 4 écartés/);

  t.equal(
    codeOf(await svc.call(s.apiKey, 'delete_audience', { audience_id: audienceId })),
    'invalid_argument',
    'confirm required',
  );
  const deleted = await svc.call(s.apiKey, 'delete_audience', { audience_id: audienceId, confirm: true });
  t.same(deleted.body.deleted.contact_count, 2);
  t.equal(codeOf(await svc.call(s.apiKey, 'list_contacts', { audience_id: audienceId })), 'not_found', 'deleted');
  t.same((await svc.call(s.apiKey, 'list_contacts', {})).body.items.length, 3, 'its contacts stay in the space');
});

t.test('refusals, permissions and other spaces', async (t) => {
  const s = await svc.space();
  const { audience } = (await svc.call(s.apiKey, 'create_audience', { name: 'A' })).body;
  t.equal(codeOf(await svc.call(s.apiKey, 'create_audience', { name: '' })), 'invalid_argument');
  t.equal(codeOf(await svc.call(s.apiKey, 'create_audience', { name: 'deux\nlignes' })), 'invalid_argument');
  t.equal(
    codeOf(await svc.call(s.apiKey, 'add_contacts', { audience_id: audience.id, contacts: [] })),
    'invalid_argument',
    'none',
  );
  const tooMany = Array.from({ length: 1001 }, (_, i) => ({ email: `c${i}@exemple.test` }));
  t.equal(
    codeOf(await svc.call(s.apiKey, 'add_contacts', { audience_id: audience.id, contacts: tooMany })),
    'invalid_argument',
    'over 1,000',
  );
  t.equal(
    codeOf(
      await svc.call(s.apiKey, 'add_contacts', {
        audience_id: audience.id,
        contacts: [{ email: 'a@b.test', fields: { 'pas un nom': 'x' } }],
      }),
    ),
    'invalid_argument',
    'field names',
  );
  t.equal(
    codeOf(
      await svc.call(s.apiKey, 'add_contacts', {
        audience_id: audience.id,
        contacts: [{ email: 'a@b.test', extra: 1 }],
      }),
    ),
    'invalid_argument',
    'unknown property',
  );
  t.equal(
    codeOf(
      await svc.call(s.apiKey, 'add_contacts', {
        audience_id: audience.id,
        contacts: [{ email: 'a@b.test', name: s.apiKey }],
      }),
    ),
    'secret_in_message',
  );
  t.equal(
    codeOf(
      await svc.call(s.apiKey, 'add_contacts', {
        audience_id: svc.rt.ids.next('audience'),
        contacts: [{ email: 'a@b.test' }],
      }),
    ),
    'not_found',
  );
  t.equal(
    codeOf(await svc.call(s.apiKey, 'remove_contacts', { audience_id: audience.id, emails: [] })),
    'invalid_argument',
  );
  t.equal(
    codeOf(await svc.call(s.apiKey, 'delete_audience', { audience_id: svc.rt.ids.next('audience'), confirm: true })),
    'not_found',
  );

  const reader = await svc.key(s.apiKey, { name: 'lecteur', permissions: ['read'] });
  t.equal(codeOf(await svc.call(reader.apiKey, 'create_audience', { name: 'B' })), 'forbidden');
  t.equal(
    codeOf(
      await svc.call(reader.apiKey, 'add_contacts', { audience_id: audience.id, contacts: [{ email: 'a@b.test' }] }),
    ),
    'forbidden',
  );
  t.equal((await svc.call(reader.apiKey, 'list_audiences', {})).status, 200);
  t.equal((await svc.call(reader.apiKey, 'list_contacts', { audience_id: audience.id })).status, 200);
  const sender = await svc.key(s.apiKey, { name: 'agent', permissions: ['send'] });
  t.equal(
    (await svc.call(sender.apiKey, 'add_contacts', { audience_id: audience.id, contacts: [{ email: 'a@b.test' }] }))
      .status,
    200,
    'send adds',
  );
  t.equal(
    codeOf(await svc.call(sender.apiKey, 'delete_audience', { audience_id: audience.id, confirm: true })),
    'forbidden',
    'approve deletes',
  );

  const other = await svc.space();
  t.same((await svc.call(other.apiKey, 'list_audiences', {})).body.items, []);
  t.equal(
    codeOf(
      await svc.call(other.apiKey, 'add_contacts', { audience_id: audience.id, contacts: [{ email: 'a@b.test' }] }),
    ),
    'not_found',
    "add_contacts: another space's audience",
  );
  t.equal(
    codeOf(await svc.call(other.apiKey, 'remove_contacts', { audience_id: audience.id, emails: ['a@b.test'] })),
    'not_found',
    "remove_contacts: another space's audience",
  );
  t.equal(
    codeOf(await svc.call(other.apiKey, 'list_contacts', { audience_id: audience.id })),
    'not_found',
    "list_contacts: another space's audience",
  );
  t.equal(
    codeOf(await svc.call(other.apiKey, 'delete_audience', { audience_id: audience.id, confirm: true })),
    'not_found',
    "delete_audience: another space's audience",
  );
  t.same((await svc.call(other.apiKey, 'list_contacts', {})).body.items, []);
});
