/**
 * What the send worker records once an attempt ends, through the real queue (send_email, then
 * deliverDue against a peer MTA on loopback): the message's status and code, the `mail.message.*`
 * events, and the journal line in French. Direct delivery is `delivered`, a relay or the outbox
 * `sent`; a permanent refusal is `rejected` at once (an unknown address also blocked); a temporary one is tried again after each delay
 * of RETRY_DELAYS_MS, silently, then `failed`. A recipient suppressed, or dead platform-wide, while the
 * message waited is `rejected` without any attempt.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { markDeadAddress } from '../../actors/dead-addresses.js';
import { createTransport, transportFor } from '../../src/delivery/transports.js';
import { spaceKeys } from '../../src/redis/keys.js';
import { parisDay } from '../../src/texts.js';
import { RETRY_DELAYS_MS } from '../../src/sending/retries.js';
import { deliverDue } from '../../src/workers/send.js';
import { MASTER_KEY } from '../helpers/domains.js';
import { withConfig } from '../helpers/mail.js';
import { send, sender, type Sender } from '../helpers/outbound.js';
import { mondayMorning, startService } from '../helpers/service.js';
import { startPeer } from '../helpers/smtp-peer.js';
import { streamEnvelopes } from '../helpers/events.js';

const clock = mondayMorning();
const dataDir = mkdtempSync(join(tmpdir(), 'mbx-outcomes-'));
t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
const svc = await startService({
  clock,
  env: { MAILBOX_MASTER_KEY: MASTER_KEY, MAILBOX_DATA_DIR: dataDir, SPACING_SECONDS: '0' },
});
const peer = await startPeer({
  rcpt: (address) => {
    if (address.startsWith('inconnu-'))
      return { code: 550, message: '5.1.1 <inconnu>: Recipient address rejected: User unknown' };
    if (address.startsWith('plus-tard-')) return { code: 451, message: '4.7.1 Greylisted, try again later' };
    return null;
  },
});
svc.dns.mx('destinataire.test', 'mx.destinataire.test', 10);
svc.dns.a('mx.destinataire.test', '127.0.0.1');
const directRt = withConfig(svc.rt, {
  outbound: { kind: 'direct' },
  directPort: peer.port,
  heloName: 'out.mailbox.test',
});
const direct = createTransport(directRt);

/** The space's event stream, every envelope decoded. */
const eventsOf = async (spaceId: string) => streamEnvelopes(svc.rt, spaceId);

/** Sends one message to `to` and runs the worker until its inbox's queue is empty, following the clock. */
async function sendAndDeliver(s: Sender, to: string, rt = directRt, transport = direct) {
  const res = await send(svc, s, { to });
  t.equal(res.status, 200, JSON.stringify(res.body.error));
  for (
    let next = await deliverDue(rt, transport, s.spaceId, s.inboxId);
    next !== null;
    next = await deliverDue(rt, transport, s.spaceId, s.inboxId)
  ) {
    clock.set(Math.max(next, clock.now() + 1));
  }
  const id: string = res.body.message.id;
  const message = (await svc.call(s.apiKey, 'get_message', { message_id: id })).body;
  const events = (await eventsOf(s.spaceId)).filter(
    (event) => event.data.message_id === id && event.type !== 'mail.message.queued',
  );
  const lines = (await svc.call(s.apiKey, 'list_events', { message_id: id })).body.events.filter(
    (line: { kind: string }) => line.kind !== 'message.queued',
  );
  return { message, events, lines };
}

t.test('delivered to the MX: mail.message.sent then .delivered, one line', async (t) => {
  const s = await sender(svc);
  const to = `marie-${Date.now()}@destinataire.test`;
  const { message, events, lines } = await sendAndDeliver(s, to);
  t.match(message, { status: 'delivered', status_code: null });
  t.same(
    events.map((e) => e.type),
    ['mail.message.sent', 'mail.message.delivered'],
  );
  t.match(events[1], {
    subject: { person: { email: to }, refs: { message_id: message.id } },
    data: { to, status_code: null },
  });
  t.same(
    lines.map((l: { text: string }) => l.text),
    [`Remise du message « Bonjour » pour ${to} au serveur du destinataire`],
  );
  t.equal(lines[0].actor.kind, 'service');
  t.ok((await peer.next()).to.includes(to));
});

t.test('the outbox (as a relay): sent, not delivered', async (t) => {
  const s = await sender(svc);
  const to = `paul-${Date.now()}@destinataire.test`;
  const { message, events, lines } = await sendAndDeliver(s, to, svc.rt, transportFor(svc.rt));
  t.match(message, { status: 'sent' });
  t.same(
    events.map((e) => e.type),
    ['mail.message.sent'],
  );
  t.same(
    lines.map((l: { text: string }) => l.text),
    [`Envoi du message « Bonjour » pour ${to}`],
  );
});

t.test('a permanent refusal: rejected at once with its code', async (t) => {
  const s = await sender(svc);
  const to = `inconnu-${Date.now()}@destinataire.test`;
  const before = clock.now();
  const { message, events, lines } = await sendAndDeliver(s, to);
  t.equal(clock.now(), before, 'no retry');
  t.match(message, { status: 'rejected', status_code: 'recipient_unknown' });
  t.same(
    events.map((e) => e.type),
    ['mail.message.rejected'],
  );
  t.match(events[0]!.data, { status_code: 'recipient_unknown', response: /User unknown/ });
  t.same(
    lines.map((l: { text: string }) => l.text),
    [
      `Blocage de « ${to} » : adresse inexistante (rebond définitif)`,
      `Refus définitif du message « Bonjour » pour ${to} (recipient_unknown)`,
    ],
    'an unknown address is a hard bounce: blocked (newest line first)',
  );
});

t.test('a temporary refusal: tried again after each delay, then failed', async (t) => {
  const s = await sender(svc);
  const to = `plus-tard-${Date.now()}@destinataire.test`;
  const before = clock.now();
  const { message, events, lines } = await sendAndDeliver(s, to);
  t.equal(
    clock.now() - before,
    RETRY_DELAYS_MS.reduce((sum, delay) => sum + delay, 0),
    'every delay waited, nothing more',
  );
  t.match(message, { status: 'failed', status_code: 'smtp_4xx' });
  t.same(
    events.map((e) => e.type),
    ['mail.message.failed'],
    'retries emit nothing',
  );
  t.same(
    lines.map((l: { text: string }) => l.text),
    [`Abandon de l'envoi du message « Bonjour » pour ${to} après ses nouvelles tentatives (smtp_4xx)`],
  );
});

t.test('a recipient suppressed while the message waited: rejected recipient_suppressed, never sent', async (t) => {
  const s = await sender(svc);
  const [byAddress, byDomain, tested] = [
    `lea-${Date.now()}@destinataire.test`,
    `noe-${Date.now()}@bloque.test`,
    'humain@exemple.fr',
  ];
  for (const domain of ['bloque.test', 'exemple.fr']) svc.dns.mx(domain, 'mx.destinataire.test', 10);
  const ids: string[] = [];
  for (const [to, test] of [
    [byAddress, false],
    [byDomain, false],
    [tested, true],
  ] as const) {
    const res = await send(svc, s, { to, test });
    t.equal(res.status, 200, JSON.stringify(res.body.error));
    ids.push(res.body.message.id);
  }
  t.equal((await svc.call(s.apiKey, 'add_suppression', { value: byAddress })).status, 200);
  t.equal((await svc.call(s.apiKey, 'add_suppression', { value: 'bloque.test' })).status, 200);
  t.equal((await svc.call(s.apiKey, 'add_suppression', { value: tested })).status, 200);
  const before = peer.received.length;
  while ((await deliverDue(directRt, direct, s.spaceId, s.inboxId)) !== null);
  t.same(
    peer.received.slice(before).map((m) => m.to),
    [[tested]],
    'only the test send left: tests skip the list',
  );
  for (const [id, to] of [
    [ids[0]!, byAddress],
    [ids[1]!, byDomain],
  ]) {
    t.match((await svc.call(s.apiKey, 'get_message', { message_id: id })).body, {
      status: 'rejected',
      status_code: 'recipient_suppressed',
    });
    const [line] = (await svc.call(s.apiKey, 'list_events', { message_id: id })).body.events;
    t.equal(line.text, `Refus définitif du message « Bonjour » pour ${to} (recipient_suppressed)`);
  }
  const rejected = (await eventsOf(s.spaceId)).filter((e) => e.type === 'mail.message.rejected');
  t.same(
    rejected.map((e) => [e.data.message_id, e.data.status_code]),
    [
      [ids[0], 'recipient_suppressed'],
      [ids[1], 'recipient_suppressed'],
    ],
  );
  t.equal(
    await svc.rt.redis.hget(spaceKeys(s.spaceId).inboxSlots(s.inboxId), `bounced:${parisDay(clock.now())}`),
    null,
    'not a bounce for the circuit breaker',
  );
});

t.test('a recipient that became dead platform-wide while the message waited: rejected, never sent', async (t) => {
  const s = await sender(svc);
  const to = `perdu-${Date.now()}@destinataire.test`;
  const res = await send(svc, s, { to });
  t.equal(res.status, 200, JSON.stringify(res.body.error));
  // A hard bounce in another space reported the address unknown.
  await markDeadAddress(svc.rt, to, {
    status_code: 'recipient_unknown',
    space_id: 'spc_00000000000000000000',
    message_id: 'msg_00000000000000000000',
    at: new Date(clock.now()).toISOString(),
  });
  const before = peer.received.length;
  while ((await deliverDue(directRt, direct, s.spaceId, s.inboxId)) !== null);
  t.equal(peer.received.length, before, 'nothing sent');
  t.match((await svc.call(s.apiKey, 'get_message', { message_id: res.body.message.id })).body, {
    status: 'rejected',
    status_code: 'recipient_suppressed',
  });
  const rejected = (await eventsOf(s.spaceId)).find((e) => e.type === 'mail.message.rejected');
  t.match(rejected?.data, {
    message_id: res.body.message.id,
    response: 'not sent: the address is dead: a hard bounce reported it unknown',
  });
});
