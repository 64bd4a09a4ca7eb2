/**
 * reply_to_thread: to the thread's correspondent, "Re:" once, threading headers, the same answer as
 * send_email; the loop guard; the common domain answers only people who wrote; a reply to someone who
 * wrote may leave outside the window; dry runs, idempotency and the other refusals.
 */
import t from 'tap';
import { finishDelivery, takeDue } from '../../actors/delivery.js';
import { spaceKeys } from '../../src/redis/keys.js';
import { iso } from '../../src/clock.js';
import { MASTER_KEY } from '../helpers/domains.js';
import { journalIndexEntries } from '../helpers/events.js';
import { inboxState, recipient, send, sender, type Sender } from '../helpers/outbound.js';
import { mondayMorning, startService } from '../helpers/service.js';

const MONDAY = Date.parse('2026-11-23T08:00:00.000Z');
const MINUTE = 60_000;
const clock = mondayMorning();
const svc = await startService({ clock, env: { MAILBOX_MASTER_KEY: MASTER_KEY } });

t.beforeEach(() => clock.set(MONDAY));

const reply = (s: Sender, threadId: string, body: Record<string, unknown> = {}) =>
  svc.call(s.apiKey, 'reply_to_thread', { thread_id: threadId, text: 'Je me permets de revenir vers vous.', ...body });

/** What the inbound side records when a correspondent writes: the thread knows they wrote. */
const correspondentWrote = (s: Sender, threadId: string) =>
  svc.rt.redis.hset(spaceKeys(s.spaceId).thread(threadId), 'correspondent_wrote', '1');

/**
 * A thread of a common-domain inbox opened by an inbound message, as the inbound side stores it;
 * `wrote` false is a thread whose only inbound message was an automatic reply (docs/contract.md, Decision 9).
 */
async function inboundThread(s: Sender, inboxId: string, wrote: boolean): Promise<string> {
  const id = svc.rt.ids.next('thread');
  await svc.rt.redis.hset(spaceKeys(s.spaceId).thread(id), {
    id,
    inbox_id: inboxId,
    subject: 'Votre annonce',
    contact: recipient('lecteur'),
    contact_name: 'Lecteur',
    labels: '[]',
    archived: '0',
    unread: '1',
    message_count: '1',
    last_message_at: iso(clock.now()),
    last_direction: 'inbound',
    campaign_id: '',
    created_at: iso(clock.now()),
    correspondent_wrote: wrote ? '1' : '0',
  });
  return id;
}

t.test('a reply goes to the correspondent, "Re:" once, with In-Reply-To and References', async (t) => {
  const s = await sender(svc);
  const first = await send(svc, s, { to_name: 'Léa', subject: 'Votre projet' });
  clock.advance(MINUTE);
  const res = await reply(s, first.body.thread.id, { metadata: { etape: 2 } });
  t.equal(res.status, 200, JSON.stringify(res.body));
  t.match(res.body, {
    status: 'queued',
    replayed: false,
    dry_run: false,
    message: {
      thread_id: first.body.thread.id,
      to: first.body.message.to,
      subject: 'Re: Votre projet',
      from: s.address,
      metadata: { etape: 2 },
    },
    thread: { id: first.body.thread.id, message_count: 2, last_direction: 'outbound', subject: 'Votre projet' },
    inbox: { id: s.inboxId, queued: 2 },
  });
  t.ok(
    Date.parse(res.body.estimated_send_at) >= Date.parse(first.body.estimated_send_at) + 600_000,
    'spaced after the first message',
  );
  const stored = await svc.rt.redis.hgetall(spaceKeys(s.spaceId).message(res.body.message.id));
  const firstHeader = `<${first.body.message.id}@${s.domain}>`;
  t.same([stored.in_reply_to, JSON.parse(stored.references!)], [firstHeader, [firstHeader]]);
  t.equal(stored.to_name, 'Léa', "the thread's correspondent name");

  clock.advance(MINUTE);
  const second = await reply(s, first.body.thread.id);
  const again = await svc.rt.redis.hgetall(spaceKeys(s.spaceId).message(second.body.message.id));
  t.same(
    JSON.parse(again.references!),
    [firstHeader, `<${res.body.message.id}@${s.domain}>`],
    'References grow with the thread',
  );
  t.equal(second.body.message.subject, 'Re: Votre projet', 'never "Re: Re:"');

  const line = (await svc.call(s.apiKey, 'list_events', { message_id: res.body.message.id })).body.events[0];
  t.equal(line.text, `Mise en file de la réponse « Re: Votre projet » pour ${first.body.message.to}`);
  // A message's lines are indexed under its thread only, and read from there: its own, paged, none of the others'.
  t.equal((await svc.call(s.apiKey, 'cancel_message', { message_id: second.body.message.id })).status, 200);
  const history = async (id: string, cursor?: string) =>
    (await svc.call(s.apiKey, 'list_events', { message_id: id, limit: 1, ...(cursor ? { cursor } : {}) })).body;
  const newest = await history(second.body.message.id);
  t.match(newest.events, [{ kind: 'message.cancelled', message_id: second.body.message.id }]);
  const older = await history(second.body.message.id, newest.next_cursor);
  t.match(older, { events: [{ kind: 'message.queued', message_id: second.body.message.id }], next_cursor: null });
  t.match((await history(first.body.message.id)).events, [
    { kind: 'message.queued', message_id: first.body.message.id },
  ]);
  t.equal(
    (await svc.call(s.apiKey, 'list_events', { thread_id: first.body.thread.id })).body.events.length,
    4,
    "the thread's four lines",
  );
  const index = await journalIndexEntries(svc.rt, s.spaceId);
  t.same(
    index.filter((member) => member.startsWith('msg_')),
    [],
    'no index entry of a message in a thread',
  );
  const other = await send(svc, s, { subject: 'RE: déjà une réponse' });
  t.equal((await reply(s, other.body.thread.id)).body.message.subject, 'RE: déjà une réponse');
});

t.test('thread_loop_guard: three messages out of a thread in 24 h without an answer', async (t) => {
  const s = await sender(svc);
  const first = await send(svc, s);
  const thread = first.body.thread.id;
  clock.advance(MINUTE);
  t.equal((await reply(s, thread)).status, 200);
  clock.advance(MINUTE);
  const third = await reply(s, thread);
  t.equal(third.status, 200);
  clock.advance(MINUTE);
  const before = await inboxState(svc, s);
  const guarded = await reply(s, thread);
  t.equal(guarded.status, 429);
  t.equal(guarded.body.error.code, 'thread_loop_guard');
  t.same(
    guarded.body.error.hint,
    { retry_after_seconds: 24 * 3600 - 180 },
    'until the oldest of the three is 24 h old',
  );
  t.equal(guarded.headers.get('retry-after'), String(24 * 3600 - 180));
  t.match(guarded.body.error.message, /Réessayez dans 86220 s\.$/);
  t.same(await inboxState(svc, s), before, 'nothing written');
  t.equal((await reply(s, thread, { dry_run: true })).body.error.code, 'thread_loop_guard', 'a dry run says it too');

  await svc.call(s.apiKey, 'cancel_message', { message_id: third.body.message.id });
  t.equal((await reply(s, thread)).status, 200, 'a cancelled message never left: it does not count');
  t.equal((await reply(s, thread)).body.error.code, 'thread_loop_guard');
  clock.set(MONDAY + 24 * 3600 * 1000);
  t.equal((await reply(s, thread)).status, 200, 'the first one is 24 h old');
});

t.test('the common domain answers only a correspondent who wrote; a reply may leave outside the window', async (t) => {
  const s = await sender(svc);
  const box = await svc.call(s.apiKey, 'create_inbox', {
    username: 'accueil',
    domain: svc.rt.config.commonDomain,
    display_name: 'Accueil',
  });
  t.equal(box.body.shared, true);
  const autoReplyOnly = await inboundThread(s, box.body.id, false);
  const refused = await reply(s, autoReplyOnly);
  t.equal(refused.status, 422);
  t.equal(refused.body.error.code, 'own_domain_required');

  clock.set(Date.parse('2026-11-28T10:00:00.000Z')); // Saturday, 11:00 in Paris
  const wrote = await inboundThread(s, box.body.id, true);
  const answered = await reply(s, wrote);
  t.equal(answered.status, 200, JSON.stringify(answered.body));
  t.equal(answered.body.estimated_send_at, '2026-11-28T10:00:00.000Z', 'an answer leaves now, on a Saturday');
  t.equal(await svc.rt.redis.hget(spaceKeys(s.spaceId).message(answered.body.message.id), 'any_time'), '1');
  const firstMessage = await svc.call(s.apiKey, 'send_email', {
    inbox_id: s.inboxId,
    to: recipient(),
    subject: 'Samedi',
    text: 'Bonjour !',
  });
  t.equal(firstMessage.body.estimated_send_at, '2026-11-30T08:00:00.000Z', 'a first message waits for Monday 9:00');

  await svc.rt.redis.hset(spaceKeys(s.spaceId).space, 'plan', 'none');
  const unpaid = await reply(s, wrote);
  t.equal(unpaid.status, 402, 'answering a third party still needs a plan');
  t.equal(unpaid.body.error.code, 'payment_required');
});

t.test('an own-domain thread: once the correspondent wrote, the answer is exempt from the window', async (t) => {
  const s = await sender(svc);
  clock.set(Date.parse('2026-11-27T16:55:00.000Z')); // Friday, 17:55 in Paris
  const first = await send(svc, s);
  t.equal(first.body.estimated_send_at, '2026-11-27T16:55:00.000Z');
  clock.set(Date.parse('2026-11-28T10:00:00.000Z'));
  t.equal(
    (await reply(s, first.body.thread.id, { dry_run: true })).body.estimated_send_at,
    '2026-11-30T08:00:00.000Z',
    'no answer yet: Monday',
  );
  await correspondentWrote(s, first.body.thread.id);
  t.equal((await reply(s, first.body.thread.id)).body.estimated_send_at, '2026-11-28T10:00:00.000Z', 'an answer: now');
});

t.test(
  'a reply leaves first: first messages queued for Monday do not push back an answer written on Saturday',
  async (t) => {
    const s = await sender(svc);
    clock.set(Date.parse('2026-11-27T16:55:00.000Z')); // Friday, 17:55 in Paris
    const conversation = await send(svc, s);
    const friday = await takeDue(svc.rt, s.spaceId, s.inboxId);
    if (!('departure' in friday)) throw new Error(JSON.stringify(friday));
    await finishDelivery(svc.rt, s.spaceId, friday.departure, { ok: true, response: '250 ok' }, false);
    await correspondentWrote(s, conversation.body.thread.id);
    clock.set(Date.parse('2026-11-28T10:00:00.000Z')); // Saturday, 11:00 in Paris: the window is closed
    const waiting = [];
    for (let i = 0; i < 3; i++) waiting.push(await send(svc, s, { subject: `Premier ${i}` }));
    t.ok(
      waiting.every((w) => w.body.estimated_send_at >= '2026-11-30T08:00:00.000Z'),
      'first messages wait for Monday 9:00',
    );
    const answer = await reply(s, conversation.body.thread.id);
    t.equal(answer.status, 200, JSON.stringify(answer.body));
    t.equal(answer.body.estimated_send_at, '2026-11-28T10:00:00.000Z', 'the answer leaves now, ahead of them');
    t.equal(answer.body.inbox.next_send_at, '2026-11-28T10:00:00.000Z', "the inbox's next departure is the answer");
    const head = await svc.rt.redis.zrange(spaceKeys(s.spaceId).inboxQueue(s.inboxId), '0', '0');
    t.same(head, [answer.body.message.id], "the answer heads the inbox's queue");
    const taken = await takeDue(svc.rt, s.spaceId, s.inboxId);
    t.equal(
      'departure' in taken && taken.departure.message.id,
      answer.body.message.id,
      'the delivery worker takes it now, on Saturday',
    );
    const second = await reply(s, conversation.body.thread.id, { text: 'Et un détail.' });
    const spacing = Date.parse(second.body.estimated_send_at) - Date.parse(answer.body.estimated_send_at);
    t.ok(
      spacing >= svc.rt.config.spacingSeconds * 1000 && second.body.estimated_send_at < '2026-11-30T00:00:00.000Z',
      'a second answer is spaced from the first, still on Saturday',
    );
    const next = await send(svc, s, { subject: 'Premier 3' });
    t.ok(
      Date.parse(next.body.estimated_send_at) > Date.parse(waiting[2]!.body.estimated_send_at),
      'a new first message still queues after the others',
    );
  },
);

t.test('reply_to_thread: dry run, idempotency, drafts and refusals', async (t) => {
  const s = await sender(svc);
  const first = await send(svc, s);
  const thread = first.body.thread.id;
  const before = await inboxState(svc, s);
  const dry = await reply(s, thread, { dry_run: true });
  t.match(dry.body, { dry_run: true, status: 'queued', message: null, thread: null });
  t.same(await inboxState(svc, s), before, 'a dry run writes nothing');

  const once = await reply(s, thread, { idempotency_key: 'relance-1' });
  const twice = await reply(s, thread, { idempotency_key: 'relance-1' });
  t.same([once.body.replayed, twice.body.replayed, twice.body.message.id], [false, true, once.body.message.id]);
  t.equal(
    (await reply(s, thread, { idempotency_key: 'relance-1', text: 'Autre texte' })).body.error.code,
    'idempotency_conflict',
  );

  const held = await reply(s, thread, { requires_approval: true });
  t.match(held.body, {
    status: 'draft',
    estimated_send_at: null,
    message: { status: 'draft', subject: 'Re: Bonjour' },
  });

  const unknown = await reply(s, 'thr_00000000000000000000');
  t.equal(unknown.status, 404);
  t.equal(unknown.body.error.code, 'not_found');
  const other = await sender(svc);
  t.equal((await reply(other, thread)).body.error.code, 'not_found', "another space's thread");
  t.equal(
    (await reply(s, thread, { to: recipient() })).body.error.hint.parameter,
    'to',
    'the recipient comes from the thread',
  );
  t.equal(
    (await reply(other, thread, { reply_all: true, cc: [recipient()] })).body.error.code,
    'not_found',
    "another space's thread, with copies",
  );
  t.equal(
    (await reply(s, thread, { cc: Array.from({ length: 11 }, () => recipient()) })).body.error.hint.parameter,
    'cc',
  );
  t.equal((await reply(s, thread, { bcc: ['Paul <paul@>'] })).body.error.hint.parameter, 'bcc[0]');
  t.equal((await reply(s, thread, { reply_all: 'oui' })).body.error.hint.parameter, 'reply_all');
  const blocked = recipient('bloque');
  await svc.rt.redis.hset(
    spaceKeys(s.spaceId).suppressions,
    blocked,
    JSON.stringify({ value: blocked, reason: 'complaint' }),
  );
  const suppressed = await reply(s, thread, { bcc: [blocked] });
  t.same(
    [suppressed.status, suppressed.body.error.code, suppressed.body.error.hint],
    [422, 'recipient_suppressed', { reason: 'complaint', recipient: blocked }],
    'a suppressed bcc',
  );
  // reply_all adds the message's people to the copies given: past ten in all, refused, naming reply_all.
  const crowded = await send(svc, s, { cc: Array.from({ length: 6 }, () => recipient()) });
  const tooMany = await reply(s, crowded.body.thread.id, {
    reply_all: true,
    cc: Array.from({ length: 5 }, () => recipient()),
  });
  t.same(
    [tooMany.status, tooMany.body.error.hint],
    [400, { parameter: 'reply_all' }],
    'six people answered and five copies given: eleven',
  );
  t.equal((await reply(s, thread, { text: 'Bonjour {{prenom}}' })).body.error.code, 'unresolved_placeholder');
  t.equal((await reply(s, thread, { text: `clé ${s.apiKey}` })).body.error.code, 'secret_in_message');
  t.equal((await reply(s, 'thr_42')).body.error.hint.parameter, 'thread_id');
  const reader = await svc.key(s.apiKey, { name: 'lecteur', permissions: ['read'] });
  t.equal(
    (await svc.call(reader.apiKey, 'reply_to_thread', { thread_id: thread, text: 'x' })).body.error.code,
    'forbidden',
  );
  await svc.rt.redis.hset(spaceKeys(s.spaceId).inbox(s.inboxId), 'status', 'suspended');
  t.equal((await reply(s, thread)).body.error.code, 'inbox_suspended');
  await svc.rt.redis.hset(spaceKeys(s.spaceId).space, 'verified', '0');
  t.equal((await reply(s, thread)).body.error.code, 'space_unverified');
});
