/**
 * add_filter, list_filters, remove_filter (docs/contract.md, Decision 14): values, permissions, inbox restrictions,
 * the limit; then what they do: sends refused with recipient_not_allowed, received mail refused with
 * 550 5.7.1, and an allow that only an authenticated From passes.
 */
import t from 'tap';
import { MAX_FILTERS } from '../../actors/filter.js';
import { filterValue, fromAuthenticated, matches } from '../../src/mail/filters.js';
import { spaceKeys } from '../../src/redis/keys.js';
import { MASTER_KEY } from '../helpers/domains.js';
import { startInbound } from '../helpers/inbound.js';
import { send, sender } from '../helpers/outbound.js';
import { startService } from '../helpers/service.js';

const svc = await startService({ env: { MAILBOX_MASTER_KEY: MASTER_KEY, SEND_WINDOW: 'always' } });
const inbound = await startInbound(svc);

/** The SMTP refusal of a send into the service, or null when it was taken. */
const refusalOf = (sending: Promise<unknown>) =>
  sending.then(
    () => null,
    (error: { responseCode: number; response: string }) => error,
  );

const codeOf = (res: { body: { error?: { code: string } } }) => res.body.error?.code;

t.test('values: addresses, domains, subdomains under a leading dot, lowercase and punycode', async (t) => {
  t.equal(filterValue(' Paul@Exemple.FR '), 'paul@exemple.fr');
  t.equal(filterValue('Exemple.fr.'), 'exemple.fr');
  t.equal(filterValue('.Exemple-Café.fr'), '.xn--exemple-caf-lbb.fr');
  t.equal(filterValue('léa@café.fr'.replace('léa', 'lea')), 'lea@xn--caf-dma.fr');
  for (const bad of ['', '.', '..exemple.fr', '@exemple.fr', 'pas une valeur', 'a@b', 'exemple', 'x@@exemple.fr']) {
    t.throws(() => filterValue(bad), { code: 'invalid_argument' }, JSON.stringify(bad));
  }
  t.ok(matches('exemple.fr', 'Paul@EXEMPLE.fr'));
  t.notOk(matches('exemple.fr', 'paul@envoi.exemple.fr'), 'a bare domain is that domain only');
  t.ok(matches('.exemple.fr', 'paul@envoi.exemple.fr'));
  t.ok(matches('.exemple.fr', 'paul@exemple.fr'));
  t.notOk(matches('.exemple.fr', 'paul@pasexemple.fr'));
  t.notOk(matches('paul@exemple.fr', 'pauline@exemple.fr'));
  t.notOk(matches('exemple.fr', ''), 'no From matches nothing');
  t.ok(fromAuthenticated({ dmarc: 'pass' }, 'a@x.fr', ''));
  t.ok(
    fromAuthenticated({ dmarc: 'fail', dkim: [{ domain: 'mail.x.fr', result: 'pass' }] }, 'a@x.fr', ''),
    'aligned DKIM',
  );
  t.notOk(
    fromAuthenticated({ dmarc: 'fail', dkim: [{ domain: 'autre.fr', result: 'pass' }] }, 'a@x.fr', ''),
    'DKIM of another domain',
  );
  t.ok(fromAuthenticated({ spf: 'pass' }, 'a@x.fr', 'rebond@x.fr'), 'aligned SPF');
  t.notOk(fromAuthenticated({ spf: 'pass' }, 'a@x.fr', 'rebond@autre.fr'), 'SPF of another domain');
});

t.test('add, list, remove: normalised, journaled, the same filter once; refusals', async (t) => {
  const s = await sender(svc);
  const added = await svc.call(s.apiKey, 'add_filter', {
    inbox_id: s.inboxId,
    direction: 'receive',
    action: 'block',
    value: ' Spam.FR ',
  });
  t.equal(added.status, 200, JSON.stringify(added.body));
  t.match(added.body, {
    created: true,
    filter: { inbox_id: s.inboxId, direction: 'receive', action: 'block', value: 'spam.fr' },
  });
  t.match(added.body.filter.id, /^flt_/);
  const again = await svc.call(s.apiKey, 'add_filter', {
    inbox_id: s.inboxId,
    direction: 'receive',
    action: 'block',
    value: 'spam.fr',
  });
  t.same(
    again.body,
    { created: false, filter: added.body.filter, notice: added.body.notice },
    'the same filter is answered as it is',
  );
  const wide = await svc.call(s.apiKey, 'add_filter', { direction: 'send', action: 'allow', value: '.client.fr' });
  t.equal(wide.body.filter.inbox_id, null);

  t.same((await svc.call(s.apiKey, 'list_filters', {})).body.items, [added.body.filter, wide.body.filter]);
  t.same(
    (await svc.call(s.apiKey, 'list_filters', { inbox_id: s.inboxId })).body.items.length,
    2,
    "the inbox's and the space's",
  );

  t.equal(
    codeOf(await svc.call(s.apiKey, 'add_filter', { direction: 'receive', action: 'block', value: 'pas une valeur' })),
    'invalid_argument',
  );
  t.equal(
    codeOf(await svc.call(s.apiKey, 'add_filter', { direction: 'sideways', action: 'block', value: 'x.fr' })),
    'invalid_argument',
  );
  t.equal(
    codeOf(
      await svc.call(s.apiKey, 'add_filter', {
        inbox_id: svc.rt.ids.next('inbox'),
        direction: 'send',
        action: 'block',
        value: 'x.fr',
      }),
    ),
    'not_found',
  );
  t.equal(codeOf(await svc.call(s.apiKey, 'remove_filter', { filter_id: svc.rt.ids.next('filter') })), 'not_found');
  t.equal(codeOf(await svc.call(s.apiKey, 'remove_filter', { filter_id: 'flt_x' })), 'invalid_argument');

  const reader = await svc.key(s.apiKey, { name: 'lecteur', permissions: ['read'] });
  t.equal(
    codeOf(await svc.call(reader.apiKey, 'add_filter', { direction: 'send', action: 'block', value: 'x.fr' })),
    'forbidden',
  );
  t.equal(codeOf(await svc.call(reader.apiKey, 'remove_filter', { filter_id: wide.body.filter.id })), 'forbidden');
  t.equal((await svc.call(reader.apiKey, 'list_filters', {})).status, 200);
  const manager = await svc.key(s.apiKey, { name: 'gestion', permissions: ['manage_inboxes'] });
  t.equal(
    (await svc.call(manager.apiKey, 'add_filter', { direction: 'send', action: 'block', value: 'x.fr' })).status,
    200,
    'manage_inboxes adds',
  );

  const other = await svc.space();
  t.equal(
    codeOf(await svc.call(other.apiKey, 'remove_filter', { filter_id: wide.body.filter.id })),
    'not_found',
    "another space's filter",
  );
  t.same((await svc.call(other.apiKey, 'list_filters', {})).body.items, []);
  t.equal(
    codeOf(
      await svc.call(other.apiKey, 'add_filter', {
        inbox_id: s.inboxId,
        direction: 'send',
        action: 'block',
        value: 'x.fr',
      }),
    ),
    'not_found',
    "add_filter: another space's inbox",
  );
  t.equal(
    codeOf(await svc.call(other.apiKey, 'list_filters', { inbox_id: s.inboxId })),
    'not_found',
    "list_filters: another space's inbox",
  );

  const removed = await svc.call(s.apiKey, 'remove_filter', { filter_id: wide.body.filter.id });
  t.same(removed.body, { removed: wide.body.filter });
  t.equal(
    codeOf(await svc.call(s.apiKey, 'remove_filter', { filter_id: wide.body.filter.id })),
    'not_found',
    'removed once',
  );
  const kinds = (await svc.call(s.apiKey, 'list_events', {})).body.events.map((l: { kind: string }) => l.kind);
  t.ok(kinds.includes('filter.added') && kinds.includes('filter.removed'));
});

t.test('a key restricted to inboxes: its inboxes only; the space-wide filters read-only', async (t) => {
  const s = await sender(svc);
  const second = await svc.call(s.apiKey, 'create_inbox', {
    username: 'achats',
    domain: s.domain,
    display_name: 'Achats',
  });
  const restricted = await svc.key(s.apiKey, {
    name: 'limitée',
    permissions: ['read', 'approve'],
    inbox_ids: [s.inboxId],
  });
  const wide = await svc.call(s.apiKey, 'add_filter', { direction: 'receive', action: 'block', value: 'spam.fr' });
  const elsewhere = await svc.call(s.apiKey, 'add_filter', {
    inbox_id: second.body.id,
    direction: 'receive',
    action: 'block',
    value: 'x.fr',
  });
  const own = await svc.call(restricted.apiKey, 'add_filter', {
    inbox_id: s.inboxId,
    direction: 'send',
    action: 'block',
    value: 'x.fr',
  });
  t.equal(own.status, 200);
  t.equal(
    codeOf(await svc.call(restricted.apiKey, 'add_filter', { direction: 'send', action: 'block', value: 'x.fr' })),
    'forbidden',
  );
  t.equal(
    codeOf(
      await svc.call(restricted.apiKey, 'add_filter', {
        inbox_id: second.body.id,
        direction: 'send',
        action: 'block',
        value: 'x.fr',
      }),
    ),
    'not_found',
  );
  const seen = (await svc.call(restricted.apiKey, 'list_filters', {})).body.items.map((f: { id: string }) => f.id);
  t.same(seen, [wide.body.filter.id, own.body.filter.id]);
  t.equal(codeOf(await svc.call(restricted.apiKey, 'list_filters', { inbox_id: second.body.id })), 'not_found');
  t.equal(codeOf(await svc.call(restricted.apiKey, 'remove_filter', { filter_id: wide.body.filter.id })), 'forbidden');
  t.equal(
    codeOf(await svc.call(restricted.apiKey, 'remove_filter', { filter_id: elsewhere.body.filter.id })),
    'not_found',
  );
  t.equal((await svc.call(restricted.apiKey, 'remove_filter', { filter_id: own.body.filter.id })).status, 200);
});

t.test('at most 1,000 filters per space: filter_limit', async (t) => {
  const s = await sender(svc);
  const filters = spaceKeys(s.spaceId).filters;
  for (let i = 0; i < MAX_FILTERS; i++)
    await svc.rt.redis.hset(
      filters,
      `flt_${i}`,
      JSON.stringify({ id: `flt_${i}`, inbox_id: null, direction: 'send', action: 'block', value: `x${i}.fr` }),
    );
  const res = await svc.call(s.apiKey, 'add_filter', { direction: 'send', action: 'block', value: 'encore.fr' });
  t.equal(res.status, 409);
  t.equal(codeOf(res), 'filter_limit');
  t.same(res.body.error.hint, { max: MAX_FILTERS });
  t.equal(await svc.rt.redis.hlen(filters), MAX_FILTERS, 'nothing written');
});

t.test('sending: a block, or an allow-list that does not match, refuses with recipient_not_allowed', async (t) => {
  const s = await sender(svc);
  const block = await svc.call(s.apiKey, 'add_filter', {
    inbox_id: s.inboxId,
    direction: 'send',
    action: 'block',
    value: '.concurrent.fr',
  });
  const refused = await send(svc, s, { to: 'pdg@envoi.concurrent.fr' });
  t.equal(refused.status, 422);
  t.equal(codeOf(refused), 'recipient_not_allowed');
  t.same(refused.body.error.hint, { filter_id: block.body.filter.id });
  t.equal(
    codeOf(await send(svc, s, { to: 'pdg@concurrent.fr', dry_run: true })),
    'recipient_not_allowed',
    'dry_run tells it too',
  );

  const sent = await send(svc, s);
  t.equal(sent.status, 200, 'no allow yet: anyone else');
  const draft = await send(svc, s, { requires_approval: true });
  t.equal(draft.body.status, 'draft');

  const allow = await svc.call(s.apiKey, 'add_filter', { direction: 'send', action: 'allow', value: 'client.fr' });
  const outside = await send(svc, s);
  t.equal(codeOf(outside), 'recipient_not_allowed', 'a send to a non-allowed domain');
  t.same(outside.body.error.hint, { filter_id: allow.body.filter.id });
  t.equal((await send(svc, s, { to: 'lea@client.fr' })).status, 200, 'the allowed domain');
  const reply = await svc.call(s.apiKey, 'reply_to_thread', { thread_id: sent.body.thread.id, text: 'Une relance.' });
  t.equal(codeOf(reply), 'recipient_not_allowed', 'reply_to_thread');
  const approval = await svc.call(s.apiKey, 'approve_message', {
    message_id: draft.body.message.id,
    revision: draft.body.message.revision,
  });
  t.equal(codeOf(approval), 'recipient_not_allowed', 'approve_message');

  const status = await svc.call(s.apiKey, 'inbox_status', { inbox_id: s.inboxId });
  t.same(status.body.filters, { receive_allow: 0, receive_block: 0, send_allow: 1, send_block: 1 });
  const settings = await svc.call(s.apiKey, 'get_settings', {});
  t.same(settings.body.filters, {
    space_wide: { receive_allow: 0, receive_block: 0, send_allow: 1, send_block: 0 },
    total: 2,
    max: MAX_FILTERS,
  });
});

/** What the inbox holds: threads, and the events of the space. */
async function stored(spaceId: string) {
  const keys = spaceKeys(spaceId);
  return { threads: await svc.rt.redis.zcard(keys.threads), events: await svc.rt.redis.xlen(keys.events) };
}

t.test('receiving: a blocked domain (From or envelope) gets 550 5.7.1, journaled, nothing stored', async (t) => {
  const s = await sender(svc);
  const block = await svc.call(s.apiKey, 'add_filter', {
    inbox_id: s.inboxId,
    direction: 'receive',
    action: 'block',
    value: '.spam.test',
  });
  const before = await stored(s.spaceId);
  t.match(
    await refusalOf(inbound.send({ from: 'promo@news.spam.test', to: s.address, subject: 'Promo', text: 'Achetez.' })),
    { responseCode: 550, response: /5\.7\.1/ },
  );
  t.match(
    await refusalOf(
      inbound.send({
        from: 'ami@ailleurs.test',
        to: s.address,
        envelope: { from: 'rebond@spam.test', to: [s.address] },
        subject: 'Salut',
        text: 'x',
      }),
    ),
    { responseCode: 550 },
    'the envelope sender',
  );
  t.same(await stored(s.spaceId), before, 'no thread, no event');
  const lines = (await svc.call(s.apiKey, 'list_events', {})).body.events.filter(
    (l: { kind: string }) => l.kind === 'message.filtered',
  );
  t.equal(lines.length, 2);
  t.match(lines[0], { inbox_id: s.inboxId, actor: { kind: 'service' }, text: /filtre flt_/ });
  t.ok(
    (await inbound.send({ from: 'client@ailleurs.test', to: s.address, subject: 'Bonjour', text: 'x' })).accepted
      .length,
    'others still reach it',
  );
  t.equal((await svc.call(s.apiKey, 'remove_filter', { filter_id: block.body.filter.id })).status, 200);
  t.ok(
    (await inbound.send({ from: 'promo@news.spam.test', to: s.address, subject: 'Promo', text: 'x' })).accepted.length,
    'lifted',
  );
});

t.test('receiving with an allow: only an authenticated From passes; a forged one gets 550', async (t) => {
  const s = await sender(svc);
  svc.dns.txt('confiance.test', 'v=spf1 ip4:127.0.0.1 -all');
  svc.dns.txt('_dmarc.confiance.test', 'v=DMARC1; p=reject');
  const allow = await svc.call(s.apiKey, 'add_filter', {
    inbox_id: s.inboxId,
    direction: 'receive',
    action: 'allow',
    value: 'confiance.test',
  });
  t.equal(allow.status, 200);
  const before = await stored(s.spaceId);
  t.match(
    await refusalOf(
      inbound.send({
        from: 'chef@confiance.test',
        to: s.address,
        envelope: { from: 'pirate@pirate.test', to: [s.address] },
        subject: 'Virement',
        text: 'Urgent.',
      }),
    ),
    { responseCode: 550, response: /5\.7\.1/ },
    'a forged From matching the allow',
  );
  t.match(
    await refusalOf(inbound.send({ from: 'x@ailleurs.test', to: s.address, subject: 'Hors liste', text: 'x' })),
    { responseCode: 550 },
    'a sender not allowed',
  );
  t.same(await stored(s.spaceId), before);
  const passed = await inbound.send({
    from: 'chef@confiance.test',
    to: s.address,
    envelope: { from: 'chef@confiance.test', to: [s.address] },
    subject: 'Réunion',
    text: 'Jeudi ?',
  });
  t.ok(passed.accepted.length, 'SPF and DMARC pass for confiance.test');
  const threads = await svc.call(s.apiKey, 'list_threads', { inbox_id: s.inboxId });
  t.same(
    threads.body.items.map((th: { subject: string }) => th.subject),
    ['Réunion'],
  );
});

t.test(
  "an inbox's filters leave the space's other inboxes alone; a mail to both is taken for the one that allows it",
  async (t) => {
    const s = await sender(svc);
    const other = await svc.call(s.apiKey, 'create_inbox', {
      username: 'support',
      domain: s.domain,
      display_name: 'Support',
    });
    t.equal(other.status, 200);
    await svc.call(s.apiKey, 'add_filter', {
      inbox_id: s.inboxId,
      direction: 'send',
      action: 'block',
      value: 'concurrent.fr',
    });
    await svc.call(s.apiKey, 'add_filter', {
      inbox_id: s.inboxId,
      direction: 'receive',
      action: 'block',
      value: 'bruit.test',
    });
    t.equal(codeOf(await send(svc, s, { to: 'pdg@concurrent.fr' })), 'recipient_not_allowed');
    t.equal(
      (await send(svc, { ...s, inboxId: other.body.id }, { to: 'pdg@concurrent.fr' })).status,
      200,
      'the other inbox writes to it',
    );

    const both = await inbound.send({
      from: 'annonce@bruit.test',
      to: [s.address, other.body.address],
      subject: 'Annonce',
      text: 'x',
    });
    t.ok(both.accepted.length, 'taken: one of its recipients allows it');
    const threads = async (inboxId: string) =>
      (await svc.call(s.apiKey, 'list_threads', { inbox_id: inboxId })).body.items.filter(
        (th: { subject: string }) => th.subject === 'Annonce',
      ).length;
    t.equal(await threads(other.body.id), 1, 'stored for the inbox without the block');
    t.equal(await threads(s.inboxId), 0, 'not for the one that blocks it');
    const lines = (await svc.call(s.apiKey, 'list_events', {})).body.events.filter(
      (l: { kind: string }) => l.kind === 'message.filtered',
    );
    t.equal(lines.length, 1, 'the refused copy is journaled once');

    await svc.call(s.apiKey, 'add_filter', {
      inbox_id: other.body.id,
      direction: 'send',
      action: 'allow',
      value: 'client.fr',
    });
    const test = await send(svc, { ...s, inboxId: other.body.id }, { to: 'humain@exemple.fr', test: true });
    t.equal(codeOf(test), 'recipient_not_allowed', 'a test send is judged by the filters too');
  },
);
