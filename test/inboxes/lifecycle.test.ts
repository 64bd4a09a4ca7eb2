/**
 * After creation: list_inboxes, inbox_status, delete_inbox, the circuit breaker's suspendInbox,
 * request_inbox_review and the operator's `mailbox admin resume-inbox`.
 */
import { randomBytes } from 'node:crypto';
import t from 'tap';
import { suspendInbox } from '../../actors/inbox.js';
import { runCli } from '../../src/cli/main.js';
import { iso } from '../../src/clock.js';
import { globalKeys, spaceKeys } from '../../src/redis/keys.js';
import { REASONS } from '../../src/texts.js';
import { testRedisTarget } from '../helpers/redis.js';
import { mondayMorning, startService } from '../helpers/service.js';
import { streamEnvelopes } from '../helpers/events.js';

const clock = mondayMorning();
const svc = await startService({ clock });
const name = (prefix = 'agent'): string => `${prefix}-${randomBytes(3).toString('hex')}`;

async function inbox(apiKey: string): Promise<{ id: string; address: string }> {
  const res = await svc.call(apiKey, 'create_inbox', { username: name(), display_name: 'Agent' });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body;
}

/** The operator's CLI against this file's Redis. */
async function cli(...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const target = await testRedisTarget();
  const env = target.clusterNodes
    ? { REDIS_CLUSTER_NODES: target.clusterNodes.map((n) => `${n.host}:${n.port}`).join(',') }
    : { REDIS_URL: target.url! };
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, {
    env: { ...env, LOG_LEVEL: 'error' },
    out: (l) => out.push(l),
    err: (l) => err.push(l),
  });
  return { code, out, err };
}

t.test('list_inboxes: live inboxes newest first, by pages; a restricted key sees only its own', async (t) => {
  const { apiKey } = await svc.space({ plan: 'pro' });
  const made: string[] = [];
  for (let i = 0; i < 5; i++) {
    made.push((await inbox(apiKey)).id);
    clock.advance(1000);
  }
  const restricted = await svc.key(apiKey, {
    name: 'restreinte',
    permissions: ['read'],
    inbox_ids: [made[0], made[2]],
  });
  await svc.call(apiKey, 'delete_inbox', { inbox_id: made[2], confirm: true });
  const expected = [made[4], made[3], made[1], made[0]];
  const first = await svc.call(apiKey, 'list_inboxes', { limit: 3 });
  t.equal(first.status, 200);
  t.same(
    first.body.items.map((i: { id: string }) => i.id),
    expected.slice(0, 3),
  );
  t.type(first.body.next_cursor, 'string');
  const second = await svc.call(apiKey, 'list_inboxes', { limit: 3, cursor: first.body.next_cursor });
  t.same(
    second.body.items.map((i: { id: string }) => i.id),
    expected.slice(3),
  );
  t.equal(second.body.next_cursor, null);
  t.same((await svc.call(apiKey, 'list_inboxes', {})).body.items.length, 4, 'a deleted inbox is not listed');

  const own = await svc.call(restricted.apiKey, 'list_inboxes', {});
  t.same(
    own.body.items.map((i: { id: string }) => i.id),
    [made[0]],
  );

  const other = await svc.space();
  const foreign = await svc.call(other.apiKey, 'list_inboxes', { cursor: first.body.next_cursor });
  t.equal(foreign.status, 400, "another space's cursor is refused");
  t.same(foreign.body.error.hint, { parameter: 'cursor' });
  t.equal((await svc.call(apiKey, 'list_inboxes', { limit: 101 })).status, 400);
});

t.test('the breaker counts 7 Paris calendar days, also across a change of time', async (t) => {
  const { apiKey, spaceId } = await svc.space();
  const box = await inbox(apiKey);
  // 2027-03-28, a Sunday, lasts 23 hours in Paris: Monday 00:30 minus 24 h is Saturday.
  const sent: Record<string, number> = { '2027-03-22': 100, '2027-03-28': 10 };
  for (const day of [23, 24, 25, 26, 27, 29]) sent[`2027-03-${day}`] = 1;
  for (const [day, count] of Object.entries(sent))
    await svc.rt.redis.hset(spaceKeys(spaceId).inboxSlots(box.id), `sent:${day}`, count);
  const saved = clock.now();
  t.teardown(() => clock.set(saved));
  clock.set('2027-03-28T22:30:00.000Z'); // Monday 29 March, 00:30 in Paris
  t.same(
    (await svc.call(apiKey, 'inbox_status', { inbox_id: box.id })).body.counts.sent_7d,
    16,
    'Tuesday 23 to Monday 29: Sunday in, Monday 22 out',
  );
});

t.test(
  'inbox_status: the inbox, its counts and the circuit breaker; not_found outside what the key sees',
  async (t) => {
    const { apiKey } = await svc.space();
    const box = await inbox(apiKey);
    const res = await svc.call(apiKey, 'inbox_status', { inbox_id: box.id });
    t.equal(res.status, 200);
    t.same(Object.keys(res.body).sort(), ['circuit_breaker', 'counts', 'filters', 'inbox', 'notice']);
    t.equal(res.body.notice, null, 'an active inbox: no next step to tell');
    t.same(res.body.filters, { receive_allow: 0, receive_block: 0, send_allow: 0, send_block: 0 });
    t.equal(res.body.inbox.id, box.id);
    t.same(res.body.counts, { sent_7d: 0, bounced_7d: 0, complaints_7d: 0 });
    t.same(res.body.circuit_breaker, {
      window_days: 7,
      min_sent: 20,
      bounce_rate_limit: 0.05,
      complaint_rate_limit: 0.003,
      complaint_count_limit: 2,
      bounce_rate: 0,
      complaint_rate: 0,
    });

    const other = await svc.space();
    const otherBox = await inbox(other.apiKey);
    const foreign = await svc.call(apiKey, 'inbox_status', { inbox_id: otherBox.id });
    t.equal(foreign.status, 404);
    t.equal(foreign.body.error.code, 'not_found');
    const second = await inbox(apiKey);
    const restricted = await svc.key(apiKey, { name: 'restreinte', permissions: ['read'], inbox_ids: [box.id] });
    t.equal(
      (await svc.call(restricted.apiKey, 'inbox_status', { inbox_id: second.id })).status,
      404,
      'outside its inbox_ids',
    );
    t.equal((await svc.call(restricted.apiKey, 'inbox_status', { inbox_id: box.id })).status, 200);
    t.equal((await svc.call(apiKey, 'inbox_status', { inbox_id: 'inb_nope' })).status, 400);
  },
);

t.test('delete_inbox: confirm, not_found, the answer, a deleted inbox stays readable', async (t) => {
  const { apiKey } = await svc.space();
  const box = await inbox(apiKey);
  const unconfirmed = await svc.call(apiKey, 'delete_inbox', { inbox_id: box.id, confirm: false });
  t.equal(unconfirmed.status, 400);
  t.same(unconfirmed.body.error.hint, { parameter: 'confirm' });
  t.equal((await svc.call(apiKey, 'delete_inbox', { inbox_id: box.id })).status, 400, 'confirm is required');

  const other = await svc.space();
  const foreign = await svc.call(other.apiKey, 'delete_inbox', { inbox_id: box.id, confirm: true });
  t.equal(foreign.status, 404);
  t.equal(foreign.body.error.code, 'not_found', "another space's inbox is not found");
  const restricted = await svc.key(apiKey, {
    name: 'restreinte',
    permissions: ['manage_inboxes'],
    inbox_ids: [(await inbox(apiKey)).id],
  });
  t.equal(
    (await svc.call(restricted.apiKey, 'delete_inbox', { inbox_id: box.id, confirm: true })).body.error.code,
    'not_found',
  );
  const reader = await svc.key(apiKey, { name: 'lecteur', permissions: ['read'] });
  t.equal(
    (await svc.call(reader.apiKey, 'delete_inbox', { inbox_id: box.id, confirm: true })).body.error.code,
    'forbidden',
  );

  const res = await svc.call(apiKey, 'delete_inbox', { inbox_id: box.id, confirm: true });
  t.equal(res.status, 200);
  t.same(res.body, { cancelled_messages: 0, deleted: box.id, remote_account_removed: true });
  t.equal(
    (await svc.call(apiKey, 'delete_inbox', { inbox_id: box.id, confirm: true })).body.error.code,
    'not_found',
    'once',
  );

  const status = await svc.call(apiKey, 'inbox_status', { inbox_id: box.id });
  t.equal(status.body.inbox.status, 'deleted');
  t.equal(status.body.inbox.status_changed_at, iso(clock.now()));
  t.equal(JSON.parse((await svc.rt.redis.get(globalKeys.address(box.address)))!).state, 'deleted');
  const journal = await svc.call(apiKey, 'list_events', { inbox_id: box.id });
  t.same(
    journal.body.events.map((e: { kind: string }) => e.kind),
    ['inbox.deleted', 'inbox.created'],
  );
  t.equal(journal.body.events[0].text, `Suppression de la boîte « ${box.address} »`);
});

t.test('suspendInbox: the circuit breaker suspends, with a journal line and mail.inbox.suspended', async (t) => {
  const { apiKey, spaceId } = await svc.space();
  const box = await inbox(apiKey);
  clock.advance(60_000);
  const reason = 'taux de rebonds de 7 % sur 7 jours (seuil 5 %)';
  t.equal(await suspendInbox(svc.rt, spaceId, box.id, reason), true);
  t.equal(await suspendInbox(svc.rt, spaceId, box.id, 'encore'), false, 'already suspended: nothing changes');

  const { body } = await svc.call(apiKey, 'inbox_status', { inbox_id: box.id });
  t.equal(body.inbox.status, 'suspended');
  t.equal(body.inbox.status_reason, reason);
  t.equal(body.inbox.status_changed_at, iso(clock.now()));
  t.same(body.inbox.suspension, { review: 'none', requested_at: null });
  t.equal(
    JSON.parse((await svc.rt.redis.get(globalKeys.address(box.address)))!).state,
    'active',
    'a suspended inbox still receives',
  );

  const events = await streamEnvelopes(svc.rt, spaceId);
  t.equal(events.length, 1, 'one event, not two');
  t.match(events[0], {
    type: 'mail.inbox.suspended',
    occurred_at: iso(clock.now()),
    account: { space_id: spaceId },
    subject: { person: null, refs: { inbox_id: box.id } },
    data: { inbox_id: box.id, address: box.address, reason },
    v: 1,
  });
  t.match(events[0]!.id, /^evt_/);
  const journal = await svc.call(apiKey, 'list_events', { inbox_id: box.id });
  t.equal(journal.body.events[0].text, `Suspension de la boîte « ${box.address} » : ${reason}`);
  t.equal(journal.body.events[0].actor.kind, 'service');

  const refused = await svc.call(apiKey, 'delete_inbox', { inbox_id: box.id, confirm: true });
  t.equal(refused.status, 409);
  t.equal(refused.body.error.code, 'inbox_suspended');
  t.match(refused.body.error.message, reason, 'the reason is in the message');
  t.match(refused.body.error.message, /request_inbox_review/);
});

t.test('the breaker stores a reason code; the French is rendered where read', async (t) => {
  const { apiKey, spaceId } = await svc.space();
  const box = await inbox(apiKey);
  const figures = { sent_7d: 40, bounced_7d: 3, complaints_7d: 0 };
  t.equal(await suspendInbox(svc.rt, spaceId, box.id, 'bounce_rate', figures), true);
  const keys = spaceKeys(spaceId);
  t.equal(await svc.rt.redis.hget(keys.inbox(box.id), 'status_reason'), 'bounce_rate', 'a code in Redis');
  const status = (await svc.call(apiKey, 'inbox_status', { inbox_id: box.id })).body;
  t.equal(status.inbox.status_reason, REASONS.bounce_rate, 'the French of its code');
  const [event] = await streamEnvelopes(svc.rt, spaceId);
  t.equal(
    event!.data.reason,
    '3 rebonds définitifs sur 40 envois en 7 jours (7,5 %, seuil 5 %) : nettoyez la liste de destinataires',
    'the event tells the figures',
  );
  const journal = await svc.call(apiKey, 'list_events', { inbox_id: box.id });
  t.equal(journal.body.events[0].text, `Suspension de la boîte « ${box.address} » : ${event!.data.reason}`);
  const refused = await svc.call(apiKey, 'delete_inbox', { inbox_id: box.id, confirm: true });
  t.match(refused.body.error.message, REASONS.bounce_rate);
});

t.test('request_inbox_review: approve only, suspended only, once', async (t) => {
  const { apiKey, spaceId } = await svc.space();
  const box = await inbox(apiKey);
  const notSuspended = await svc.call(apiKey, 'request_inbox_review', { inbox_id: box.id });
  t.equal(notSuspended.status, 409);
  t.equal(notSuspended.body.error.code, 'inbox_not_suspended');

  await suspendInbox(svc.rt, spaceId, box.id, 'plaintes au-dessus du seuil');
  const agent = await svc.key(apiKey, { name: 'agent', permissions: ['send', 'read', 'manage_inboxes'] });
  t.equal(
    (await svc.call(agent.apiKey, 'request_inbox_review', { inbox_id: box.id })).body.error.code,
    'forbidden',
    'approve is needed',
  );
  t.equal(
    (await svc.call(apiKey, 'request_inbox_review', { inbox_id: box.id, message: `voici ${apiKey}` })).body.error.code,
    'secret_in_message',
  );

  clock.advance(5000);
  const asked = await svc.call(apiKey, 'request_inbox_review', {
    inbox_id: box.id,
    message: 'Liste nettoyée, adresses mortes retirées.',
  });
  t.equal(asked.status, 200, JSON.stringify(asked.body));
  t.equal(asked.body.id, box.id);
  t.equal(asked.body.status, 'suspended', 'still suspended until an operator resumes it');
  t.same(asked.body.suspension, { review: 'requested', requested_at: iso(clock.now()) });
  clock.advance(5000);
  const again = await svc.call(apiKey, 'request_inbox_review', { inbox_id: box.id });
  t.same(again.body.suspension, asked.body.suspension, 'asked again: the first date stays');
  const journal = await svc.call(apiKey, 'list_events', { inbox_id: box.id });
  t.same(
    journal.body.events.map((e: { kind: string }) => e.kind),
    ['inbox.review_requested', 'inbox.suspended', 'inbox.created'],
  );
  t.equal(
    journal.body.events[0].text,
    `Demande de reprise de la boîte « ${box.address} » : « Liste nettoyée, adresses mortes retirées. »`,
  );
  t.equal(
    (await svc.call(apiKey, 'request_inbox_review', { inbox_id: 'inb_0000000000aaaaaaaaaa' })).body.error.code,
    'not_found',
  );
  const other = await svc.space();
  t.equal(
    (await svc.call(other.apiKey, 'request_inbox_review', { inbox_id: box.id })).body.error.code,
    'not_found',
    "another space's inbox",
  );
});

t.test('mailbox admin resume-inbox: by id and space, or by address', async (t) => {
  const { apiKey, spaceId } = await svc.space();
  const box = await inbox(apiKey);
  await suspendInbox(svc.rt, spaceId, box.id, 'rebonds');
  await svc.call(apiKey, 'request_inbox_review', { inbox_id: box.id });

  const resumed = await cli('admin', 'resume-inbox', box.id, '--space', spaceId);
  t.equal(resumed.code, 0, resumed.err.join('\n'));
  t.same(JSON.parse(resumed.out[0]!), { space_id: spaceId, inbox_id: box.id, address: box.address, status: 'active' });
  const { body } = await svc.call(apiKey, 'inbox_status', { inbox_id: box.id });
  t.equal(body.inbox.status, 'active');
  t.equal(body.inbox.status_reason, null);
  t.equal(body.inbox.suspension, null);
  t.type(body.inbox.status_changed_at, 'string');
  // The CLI runs on the system clock, not the test's: find the line by its kind.
  const journal = await svc.call(apiKey, 'list_events', { inbox_id: box.id });
  const line = journal.body.events.find((e: { kind: string }) => e.kind === 'inbox.resumed');
  t.equal(line?.text, `Reprise de la boîte « ${box.address} » par l'opérateur`);

  const twice = await cli('admin', 'resume-inbox', box.id, '--space', spaceId);
  t.equal(twice.code, 1);
  t.match(twice.err[0], /^inbox_not_suspended: /);

  await suspendInbox(svc.rt, spaceId, box.id, 'plaintes');
  const byAddress = await cli('admin', 'resume-inbox', box.address.toUpperCase());
  t.equal(byAddress.code, 0, byAddress.err.join('\n'));
  t.equal(JSON.parse(byAddress.out[0]!).inbox_id, box.id);

  t.equal((await cli('admin', 'resume-inbox', box.id)).code, 2, 'an id needs its space');
  t.equal((await cli('admin', 'resume-inbox')).code, 2);
  t.equal((await cli('admin', 'resume-inbox', 'personne@nulle.part')).code, 1);
  const unknown = await cli('admin', 'resume-inbox', 'inb_0000000000aaaaaaaaaa', '--space', spaceId);
  t.equal(unknown.code, 1);
  t.match(unknown.err[0], /^not_found: /);
});
