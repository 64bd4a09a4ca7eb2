/**
 * Drafts and the messages that wait: update_draft (revision, journal with its author, not_draft),
 * approve_message (revision check, the same slot reservation as a new message, re-checks), list_drafts
 * (newest first, pages, restricted keys), cancel_message (lists, counters, the day's reservation),
 * get_message, and delete_inbox cancelling what its inbox held.
 */
import t from 'tap';
import { completeEnvelopes } from '../../actors/events.js';
import { deadAddressKey } from '../../actors/dead-addresses.js';
import { recheckDomain } from '../../actors/domain.js';
import { suspendInbox } from '../../actors/inbox.js';
import { spaceKeys } from '../../src/redis/keys.js';
import { sendQueue } from '../../src/redis/queues.js';
import { parisDay } from '../../src/texts.js';
import { MASTER_KEY } from '../helpers/domains.js';
import { inboxState, recipient, send, sender, type Sender } from '../helpers/outbound.js';
import { mondayMorning, startService } from '../helpers/service.js';

const clock = mondayMorning();
const svc = await startService({ clock, env: { MAILBOX_MASTER_KEY: MASTER_KEY } });

const draft = async (s: Sender, body: Record<string, unknown> = {}) => {
  const res = await send(svc, s, { requires_approval: true, ...body });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.message as { id: string; revision: string; thread_id: string; to: string };
};
const journal = async (s: Sender, messageId: string) =>
  (await svc.call(s.apiKey, 'list_events', { message_id: messageId })).body.events as {
    kind: string;
    text: string;
    actor: { name: string; you: boolean };
  }[];

t.test(
  'update_draft: changed fields only, a new revision each time, the correction journaled with its author',
  async (t) => {
    const s = await sender(svc);
    const editor = await svc.key(s.apiKey, { name: 'relecteur', permissions: ['approve', 'read'] });
    const m = await draft(s, { subject: 'Premier jet', text: 'Bonjour,\nbrouillon.', html: '<p>Bonjour</p>' });
    t.equal(m.revision, '1');

    const res = await svc.call(editor.apiKey, 'update_draft', {
      message_id: m.id,
      subject: '  Proposition corrigée ',
      text: 'Bonjour,\ntexte final.',
    });
    t.equal(res.status, 200, JSON.stringify(res.body));
    t.match(res.body, {
      id: m.id,
      status: 'draft',
      subject: 'Proposition corrigée',
      text: 'Bonjour,\ntexte final.',
      has_html: true,
      revision: '2',
    });
    const thread = await svc.rt.redis.hget(spaceKeys(s.spaceId).thread(m.thread_id), 'subject');
    t.equal(thread, 'Proposition corrigée', 'the thread this draft opened takes its new subject');

    const same = await svc.call(s.apiKey, 'update_draft', { message_id: m.id, text: 'Bonjour,\ntexte final.' });
    t.equal(same.body.revision, '2', 'nothing different: nothing written, same revision');

    const noHtml = await svc.call(s.apiKey, 'update_draft', { message_id: m.id, html: '' });
    t.match(noHtml.body, { has_html: false, revision: '3' }, 'an empty html removes the HTML version');
    t.equal(await svc.rt.redis.hget(spaceKeys(s.spaceId).message(m.id), 'html'), '');

    const lines = await journal(s, m.id);
    t.match(
      lines.map((l) => l.kind),
      ['draft.updated', 'draft.updated', 'draft.created'],
    );
    t.equal(lines[1]!.text, 'Correction du brouillon « Proposition corrigée » : objet, texte');
    t.match(lines[1]!.actor, { name: 'relecteur', you: false }, 'the author is the key that corrected');
    t.equal(lines[0]!.text, 'Correction du brouillon « Proposition corrigée » : version HTML retirée');
    t.match(lines[0]!.actor, { name: 'admin', you: true });
    t.notMatch(JSON.stringify(lines), 'texte final', 'the line says what changed, not the text');
  },
);

t.test('update_draft refusals', async (t) => {
  const s = await sender(svc);
  const m = await draft(s);
  const refused = async (body: Record<string, unknown>, code: string, status: number, key = s.apiKey) => {
    const res = await svc.call(key, 'update_draft', { message_id: m.id, ...body });
    t.equal(res.status, status, `${JSON.stringify(body)} -> ${status}`);
    t.equal(res.body.error?.code, code);
    return res.body.error;
  };
  t.match(await refused({}, 'invalid_argument', 400), { hint: { parameter: 'text' } }, 'nothing to change');
  t.match(await refused({ subject: 'x'.repeat(301) }, 'invalid_argument', 400), { hint: { parameter: 'subject' } });
  t.match(await refused({ subject: 'deux\nlignes' }, 'invalid_argument', 400), { hint: { parameter: 'subject' } });
  t.match(await refused({ subject: '   ' }, 'invalid_argument', 400), { hint: { parameter: 'subject' } });
  t.match(await refused({ text: '' }, 'invalid_argument', 400), { hint: { parameter: 'text' } });
  t.match(await refused({ surprise: 1 }, 'invalid_argument', 400), { hint: { parameter: 'surprise' } });
  t.match(await refused({ text: 'Bonjour {{prenom}}' }, 'unresolved_placeholder', 422), {
    hint: { placeholder: '{{prenom}}', parameter: 'text' },
  });
  t.match(await refused({ subject: 'Lien {{unsubscribe_url}}' }, 'unresolved_placeholder', 422), {
    hint: { parameter: 'subject' },
  });
  t.match(await refused({ html: `<p>${s.apiKey}</p>` }, 'secret_in_message', 422), { hint: { parameter: 'html' } });
  const reader = await svc.key(s.apiKey, { name: 'lecteur', permissions: ['read'] });
  await refused({ text: 'x' }, 'forbidden', 403, reader.apiKey);
  const other = await sender(svc);
  await refused({ text: 'x' }, 'not_found', 404, other.apiKey);
  const unknown = await svc.call(s.apiKey, 'update_draft', { message_id: 'msg_00000000000000000000', text: 'x' });
  t.equal(unknown.body.error.code, 'not_found');
  t.equal(
    (await svc.call(s.apiKey, 'update_draft', { message_id: m.id, text: 'Avec {{unsubscribe_url}}' })).status,
    200,
    'the unsubscribe link is allowed in text',
  );

  const queued = (await send(svc, s)).body.message;
  const notDraft = await svc.call(s.apiKey, 'update_draft', { message_id: queued.id, text: 'trop tard' });
  t.equal(notDraft.status, 409);
  t.equal(notDraft.body.error.code, 'not_draft');
  t.match(notDraft.body.error.message, /Annulez-le/);
});

t.test('approve_message: the revision read, then a slot reserved as for any new message', async (t) => {
  const s = await sender(svc);
  const approver = await svc.key(s.apiKey, { name: 'humaine', permissions: ['approve'] });
  const m = await draft(s, { to_name: 'Léa' });
  const before = await inboxState(svc, s);
  t.same([before.drafts, before.queued], [1, 0]);

  const stale = await svc.call(s.apiKey, 'update_draft', { message_id: m.id, text: 'Bonjour,\nversion 2.' });
  t.equal(stale.body.revision, '2');
  const mismatch = await svc.call(approver.apiKey, 'approve_message', { message_id: m.id, revision: '1' });
  t.equal(mismatch.status, 409);
  t.equal(mismatch.body.error.code, 'revision_mismatch');
  t.same(mismatch.body.error.hint, { revision: '2' });
  t.same(
    await inboxState(svc, s),
    { ...before, journal: before.journal + 1 },
    'a refusal writes nothing (the journal line is the correction)',
  );

  const res = await svc.call(approver.apiKey, 'approve_message', { message_id: m.id, revision: '2' });
  t.equal(res.status, 200, JSON.stringify(res.body));
  t.match(res.body.message, { id: m.id, status: 'queued', revision: '2' });
  t.equal(res.body.estimated_send_at, '2026-11-23T08:00:00.000Z', 'the window is open and nothing waits: now');
  t.match(res.body.inbox, { drafts: 0, queued: 1, next_send_at: res.body.estimated_send_at });
  const after = await inboxState(svc, s);
  t.same(after.draftIds, []);
  t.same(after.inboxQueueIds, [m.id]);
  t.same(after.queueIds, [m.id]);
  t.equal(after.slots['2026-11-23'], '1', "one unit of the day's quota reserved");
  t.equal(after.slots.last, String(Date.parse(res.body.estimated_send_at)));
  const slot = Date.parse(res.body.estimated_send_at);
  t.ok(
    await sendQueue(svc.rt, s.spaceId).getJob(`wake-${s.spaceId}-${s.inboxId}-${slot}`),
    'the delivery worker is woken for its new head',
  );

  // As event_feed and webhooks deliver them: the stored envelope names the message, its text is filled in.
  const events = await completeEnvelopes(
    svc.rt,
    s.spaceId,
    await svc.rt.redis.xrange(spaceKeys(s.spaceId).events, '-', '+'),
  );
  const queued = events.find((e) => e?.type === 'mail.message.queued');
  t.match(queued, {
    subject: { person: { email: m.to, name: 'Léa' }, refs: { message_id: m.id } },
    data: { message_id: m.id, text: 'Bonjour,\nversion 2.' },
  });
  const [line] = await journal(s, m.id);
  t.match(line, { kind: 'draft.approved', actor: { name: 'humaine' } });
  t.equal(line!.text, `Validation du brouillon « Bonjour » pour ${m.to} (révision 2)`);

  const again = await svc.call(approver.apiKey, 'approve_message', { message_id: m.id, revision: '2' });
  t.equal(again.body.error.code, 'not_draft', 'approved once: no longer a draft');

  const second = await draft(s);
  const next = await svc.call(approver.apiKey, 'approve_message', { message_id: second.id, revision: '1' });
  t.ok(Date.parse(next.body.estimated_send_at) >= slot + 600_000, 'the next approval is spaced after the first');
});

t.test('approve_message refusals: permission, plan, inbox, domain, suppression, verified space', async (t) => {
  const s = await sender(svc);
  const keys = spaceKeys(s.spaceId);
  const approve = async (m: { id: string; revision: string }, key = s.apiKey) =>
    svc.call(key, 'approve_message', { message_id: m.id, revision: m.revision });
  const sendOnly = await svc.key(s.apiKey, { name: 'agent', permissions: ['send', 'read'] });
  const m = await draft(s);
  t.equal((await approve(m, sendOnly.apiKey)).body.error.code, 'forbidden', 'an agent does not approve its own sends');
  t.equal((await approve({ id: 'msg_00000000000000000000', revision: '1' })).body.error.code, 'not_found');
  t.equal((await approve(m, (await sender(svc)).apiKey)).body.error.code, 'not_found', "another space's draft");
  t.equal((await svc.call(s.apiKey, 'approve_message', { message_id: m.id })).body.error.hint.parameter, 'revision');

  await svc.rt.redis.hset(keys.suppressions, m.to, JSON.stringify({ reason: 'désabonnement' }));
  const suppressed = await approve(m);
  t.equal(suppressed.status, 422);
  t.match(suppressed.body.error, { code: 'recipient_suppressed', hint: { reason: 'désabonnement' } });
  await svc.rt.redis.hdel(keys.suppressions, m.to);

  await svc.rt.redis.hset(keys.space, 'plan', 'none');
  const unpaid = await approve(m);
  t.equal(unpaid.status, 402);
  t.equal(unpaid.body.error.code, 'payment_required');
  const toHuman = await draft(s, { to: 'humain@exemple.fr' });
  t.equal((await approve(toHuman)).status, 200, "the space's own human is reachable without plan");
  await svc.rt.redis.hset(keys.space, 'plan', 'pro');

  await svc.rt.redis.hset(keys.domain(s.domain), 'status', 'pending');
  t.equal((await approve(m)).body.error.code, 'domain_not_verified');
  await svc.rt.redis.hset(keys.domain(s.domain), 'status', 'verified');

  await svc.rt.redis.hset(keys.space, 'verified', '0');
  const unverified = await approve(m);
  t.equal(unverified.status, 403);
  t.equal(unverified.body.error.code, 'space_unverified');
  await svc.rt.redis.hset(keys.space, 'verified', '1');

  await suspendInbox(svc.rt, s.spaceId, s.inboxId, 'trop de rebonds');
  const suspended = await approve(m);
  t.equal(suspended.status, 409);
  t.equal(suspended.body.error.code, 'inbox_suspended');
  t.match(suspended.body.error.message, /trop de rebonds/);
  t.same((await inboxState(svc, s)).drafts, 1, 'still a draft after every refusal');
});

t.test('approve_message: a domain suspended by its recheck holds the approval', async (t) => {
  const s = await sender(svc);
  const m = await draft(s);
  const domains = (await svc.call(s.apiKey, 'list_domains', {})).body.domains as {
    id: string;
    domain: string;
    records: { name: string; label: string }[];
  }[];
  const domain = domains.find((d) => d.domain === s.domain)!;
  svc.dns.remove(domain.records.find((r) => r.label.startsWith('Clé DKIM 2'))!.name);
  t.equal((await recheckDomain(svc.rt, s.spaceId, domain.id))?.status, 'suspended');
  const res = await svc.call(s.apiKey, 'approve_message', { message_id: m.id, revision: '1' });
  t.equal(res.status, 409);
  t.equal(res.body.error.code, 'domain_suspended');
  const sent = await send(svc, s);
  t.equal(sent.body.error.code, 'domain_suspended', 'send_email refuses it too');
});

t.test(
  'list_drafts: newest first with full text, pages, one inbox, a restricted key sees its inboxes only',
  async (t) => {
    const s = await sender(svc);
    const second = (
      await svc.call(s.apiKey, 'create_inbox', { username: 'achats', domain: s.domain, display_name: 'Achats' })
    ).body.id as string;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await draft(s, { subject: `Brouillon ${i}`, text: `Texte complet ${i}` })).id);
      clock.advance(1000);
    }
    const other = (await send(svc, { ...s, inboxId: second }, { requires_approval: true, subject: 'Achats' })).body
      .message.id as string;
    await send(svc, s); // queued: not a draft

    const all = await svc.call(s.apiKey, 'list_drafts', {});
    t.equal(all.status, 200);
    t.same(
      all.body.items.map((m: { id: string }) => m.id),
      [other, ...[...ids].reverse()],
    );
    t.equal(all.body.items[1].text, 'Texte complet 4');
    t.same(all.body.key, { name: 'admin', permissions: ['send', 'read', 'approve', 'manage_inboxes'] });
    t.equal(all.body.next_cursor, null);

    const first = await svc.call(s.apiKey, 'list_drafts', { inbox_id: s.inboxId, limit: 2 });
    t.same(
      first.body.items.map((m: { id: string }) => m.id),
      [ids[4], ids[3]],
    );
    const rest = await svc.call(s.apiKey, 'list_drafts', {
      inbox_id: s.inboxId,
      limit: 2,
      cursor: first.body.next_cursor,
    });
    t.same(
      rest.body.items.map((m: { id: string }) => m.id),
      [ids[2], ids[1]],
    );
    const last = await svc.call(s.apiKey, 'list_drafts', {
      inbox_id: s.inboxId,
      limit: 2,
      cursor: rest.body.next_cursor,
    });
    t.same(
      last.body.items.map((m: { id: string }) => m.id),
      [ids[0]],
    );
    t.equal(last.body.next_cursor, null);
    const foreign = await svc.call(s.apiKey, 'list_drafts', { limit: 2, cursor: first.body.next_cursor });
    t.match(
      foreign.body.error,
      { code: 'invalid_argument', hint: { parameter: 'cursor' } },
      'a cursor of another filter',
    );

    const restricted = await svc.key(s.apiKey, { name: 'achats', permissions: ['approve'], inbox_ids: [second] });
    const own = await svc.call(restricted.apiKey, 'list_drafts', {});
    t.same(
      own.body.items.map((m: { id: string }) => m.id),
      [other],
    );
    t.same(own.body.key, { name: 'achats', permissions: ['approve'] });
    const outside = await svc.call(restricted.apiKey, 'list_drafts', { inbox_id: s.inboxId });
    t.equal(outside.body.error.code, 'not_found');
    t.equal(
      (await svc.call((await sender(svc)).apiKey, 'list_drafts', { inbox_id: s.inboxId })).body.error.code,
      'not_found',
      "another space's inbox",
    );
    const sendOnly = await svc.key(s.apiKey, { name: 'envoi', permissions: ['send'] });
    t.equal((await svc.call(sendOnly.apiKey, 'list_drafts', {})).body.error.code, 'forbidden');
    t.equal((await svc.call(s.apiKey, 'list_drafts', { limit: 101 })).body.error.hint.parameter, 'limit');

    await svc.call(s.apiKey, 'approve_message', { message_id: ids[4], revision: '1' });
    await svc.call(s.apiKey, 'cancel_message', { message_id: ids[3] });
    const left = await svc.call(s.apiKey, 'list_drafts', { inbox_id: s.inboxId });
    t.same(
      left.body.items.map((m: { id: string }) => m.id),
      [ids[2], ids[1], ids[0]],
      'approved and cancelled drafts leave the list',
    );
  },
);

t.test('cancel_message: a draft, a queued message (its day given back), then not_cancellable', async (t) => {
  const s = await sender(svc);
  const m = await draft(s);
  const queuedRes = await send(svc, s);
  const q = queuedRes.body.message;
  const before = await inboxState(svc, s);
  t.same([before.drafts, before.queued, before.slots['2026-11-23']], [1, 1, '1']);

  const reader = await svc.key(s.apiKey, { name: 'lecteur', permissions: ['read'] });
  t.equal((await svc.call(reader.apiKey, 'cancel_message', { message_id: m.id })).body.error.code, 'forbidden');
  const approver = await svc.key(s.apiKey, { name: 'humaine', permissions: ['approve'] });
  const cancelledDraft = await svc.call(approver.apiKey, 'cancel_message', { message_id: m.id });
  t.equal(cancelledDraft.status, 200);
  t.match(cancelledDraft.body, { id: m.id, status: 'cancelled', status_code: null });
  const cancelledQueued = await svc.call(s.apiKey, 'cancel_message', { message_id: q.id });
  t.match(cancelledQueued.body, { id: q.id, status: 'cancelled' });

  const after = await inboxState(svc, s);
  t.same([after.drafts, after.queued], [0, 0]);
  t.same([after.draftIds, after.inboxDraftIds, after.queueIds, after.inboxQueueIds], [[], [], [], []]);
  t.equal(after.slots['2026-11-23'], '0', "the day's reservation is given back");
  t.same(after.recipients, {}, 'cancelled first messages alone in their thread do not count for the 30-day rule');
  t.equal((await send(svc, s, { to: q.to })).status, 200, 'so the recipient can be written to again');

  const [line] = await journal(s, q.id);
  t.match(line, { kind: 'message.cancelled', actor: { name: 'admin', you: true } });
  t.equal(line!.text, `Annulation du message en file « Bonjour » pour ${q.to}`);
  t.equal((await journal(s, m.id))[0]!.text, `Annulation du brouillon « Bonjour » pour ${m.to}`);

  const twice = await svc.call(s.apiKey, 'cancel_message', { message_id: q.id });
  t.equal(twice.status, 409);
  t.equal(twice.body.error.code, 'not_cancellable');
  await svc.rt.redis.hset(spaceKeys(s.spaceId).message(queuedRes.body.message.id), 'status', 'sent');
  t.equal(
    (await svc.call(s.apiKey, 'cancel_message', { message_id: q.id })).body.error.code,
    'not_cancellable',
    'a sent message',
  );
  const other = await sender(svc);
  t.equal((await svc.call(other.apiKey, 'cancel_message', { message_id: m.id })).body.error.code, 'not_found');
});

t.test('a message put back after a failed attempt gives back no reservation: its attempt used it', async (t) => {
  const s = await sender(svc);
  const q = (await send(svc, s)).body.message;
  await svc.rt.redis.hset(spaceKeys(s.spaceId).message(q.id), 'attempts', '1');
  await svc.call(s.apiKey, 'cancel_message', { message_id: q.id });
  t.equal((await inboxState(svc, s)).slots['2026-11-23'], '1');
});

t.test('get_message: the message, its html, recipient name, dates and conversation headers', async (t) => {
  const s = await sender(svc);
  const later = '2026-11-24T10:30:00';
  const first = await send(svc, s, {
    to_name: 'Léa Martin',
    html: '<p>Bonjour</p>',
    send_after: later,
    metadata: { crm: 42 },
  });
  const res = await svc.call(s.apiKey, 'get_message', { message_id: first.body.message.id });
  t.equal(res.status, 200, JSON.stringify(res.body));
  t.match(res.body, {
    id: first.body.message.id,
    direction: 'outbound',
    status: 'queued',
    html: '<p>Bonjour</p>',
    has_html: true,
    to_name: 'Léa Martin',
    send_after: '2026-11-24T09:30:00.000Z',
    estimated_send_at: first.body.estimated_send_at,
    metadata: { crm: 42 },
    headers: { message_id: `<${first.body.message.id}@${s.domain}>`, in_reply_to: null, references: [] },
  });
  t.equal(res.body.estimated_send_at, '2026-11-24T09:30:00.000Z', 'not before send_after (Paris time)');
  t.match(
    (
      await (
        await svc.mcp(s.apiKey)
      ).callTool({ name: 'get_message', arguments: { message_id: first.body.message.id } })
    ).content,
    [{ text: /départ estimé mardi 24 novembre à 10 h 30/i }],
  );

  const reply = await svc.call(s.apiKey, 'reply_to_thread', {
    thread_id: first.body.thread.id,
    text: 'Je me permets de vous relancer.',
    requires_approval: true,
  });
  const read = await svc.call(s.apiKey, 'get_message', { message_id: reply.body.message.id });
  t.match(read.body, { status: 'draft', estimated_send_at: null, html: null, to_name: 'Léa Martin', send_after: null });
  t.same(read.body.headers.references, [`<${first.body.message.id}@${s.domain}>`]);
  t.equal(read.body.headers.in_reply_to, `<${first.body.message.id}@${s.domain}>`);

  const restricted = await svc.key(s.apiKey, {
    name: 'ailleurs',
    permissions: ['read'],
    inbox_ids: [
      (await svc.call(s.apiKey, 'create_inbox', { username: 'autre', domain: s.domain, display_name: 'Autre' })).body
        .id,
    ],
  });
  t.equal(
    (await svc.call(restricted.apiKey, 'get_message', { message_id: first.body.message.id })).body.error.code,
    'not_found',
  );
  t.equal(
    (await svc.call((await sender(svc)).apiKey, 'get_message', { message_id: first.body.message.id })).body.error.code,
    'not_found',
    "another space's message",
  );
});

t.test('delete_inbox cancels its drafts and queued messages and counts them', async (t) => {
  const s = await sender(svc);
  await draft(s);
  await draft(s);
  for (let i = 0; i < 3; i++) await send(svc, s);
  const kept = (await send(svc, s)).body.message.id as string;
  // What the delivery worker's takeDue does when a message leaves: out of the queues, `sending`.
  const keys = spaceKeys(s.spaceId);
  await svc.rt.redis
    .multi()
    .zrem(keys.inboxQueue(s.inboxId), kept)
    .zrem(keys.queue, kept)
    .hincrby(keys.inbox(s.inboxId), 'queued', -1)
    .hset(keys.message(kept), 'status', 'sending')
    .exec();
  const res = await svc.call(s.apiKey, 'delete_inbox', { inbox_id: s.inboxId, confirm: true });
  t.equal(res.status, 200);
  t.equal(res.body.cancelled_messages, 5, 'two drafts and three queued; the one leaving is not cancelled');
  const after = await inboxState(svc, s);
  t.same([after.drafts, after.queued, after.inboxDraftIds, after.inboxQueueIds], [0, 0, [], []]);
  t.equal(after.slots[parisDay(clock.now())], '1', 'the day keeps the reservation of the one that left');
  const lines = (await svc.call(s.apiKey, 'list_events', { inbox_id: s.inboxId })).body.events as {
    kind: string;
    text: string;
  }[];
  t.equal(lines.filter((l) => l.kind === 'message.cancelled').length, 5);
  t.match(lines.find((l) => l.kind === 'message.cancelled')!.text, / \(boîte supprimée\)$/);
  t.equal((await svc.call(s.apiKey, 'get_message', { message_id: kept })).body.status, 'sending');
  t.equal((await send(svc, s)).body.error.code, 'not_found', 'a deleted inbox sends nothing');
});

t.test('drafts to a recipient that is dead platform-wide are refused at approval', async (t) => {
  const s = await sender(svc);
  const to = recipient('mort');
  const m = await draft(s, { to });
  await svc.rt.redis.hset(deadAddressKey(to), to, JSON.stringify({ at: clock.now() }));
  const res = await svc.call(s.apiKey, 'approve_message', { message_id: m.id, revision: '1' });
  t.match(res.body.error, { code: 'recipient_suppressed', hint: { reason: 'dead_address' } });
});

t.test(
  'concurrent changes of one draft: every correction counts, approve and cancel leave consistent counters',
  async (t) => {
    const s = await sender(svc);
    const m = await draft(s);
    const results = await Promise.all(
      ['un', 'deux', 'trois', 'quatre'].map((word) =>
        svc.call(s.apiKey, 'update_draft', { message_id: m.id, text: `Version ${word}` }),
      ),
    );
    t.ok(
      results.every((r) => r.status === 200),
      'each correction read again what the others wrote',
    );
    t.same(results.map((r) => r.body.revision).sort(), ['2', '3', '4', '5']);

    for (let i = 0; i < 5; i++) {
      const d = await draft(s);
      const [approved, cancelled] = await Promise.all([
        svc.call(s.apiKey, 'approve_message', { message_id: d.id, revision: '1' }),
        svc.call(s.apiKey, 'cancel_message', { message_id: d.id }),
      ]);
      t.equal(cancelled.status, 200, 'the cancellation wins either way: a draft or a queued message');
      t.ok(approved.status === 200 || approved.body.error.code === 'not_draft', `approval: ${approved.status}`);
    }
    const state = await inboxState(svc, s);
    t.same(
      [state.drafts, state.queued, state.inboxQueueIds, state.slots[parisDay(clock.now())] ?? '0'],
      [1, 0, [], '0'],
      'no reservation left behind',
    );
  },
);
