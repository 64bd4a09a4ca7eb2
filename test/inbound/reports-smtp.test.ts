/** Bounces, complaints and mailto unsubscriptions arriving over SMTP, and the circuit breaker they feed. */
import t from 'tap';
import { deadAddress } from '../../actors/dead-addresses.js';
import { verpReturnPath } from '../../src/delivery/mime.js';
import { unsubscribeLink } from '../../src/delivery/unsubscribe.js';
import { spaceKeys } from '../../src/redis/keys.js';
import { parisDay } from '../../src/texts.js';
import { MASTER_KEY } from '../helpers/domains.js';
import { startInbound } from '../helpers/inbound.js';
import { recipient, send, sender, type Sender } from '../helpers/outbound.js';
import { startService } from '../helpers/service.js';
import * as messageLua from '../../actors/bindings/message.generated.js';

const svc = await startService({ env: { MAILBOX_MASTER_KEY: MASTER_KEY, SEND_WINDOW: 'always' } });
const inbound = await startInbound(svc);

const dsn = (to: string, status: string) =>
  [
    'From: Mail Delivery System <MAILER-DAEMON@mx.destinataire.test>',
    'Subject: Undelivered Mail Returned to Sender',
    'MIME-Version: 1.0',
    'Content-Type: multipart/report; report-type=delivery-status; boundary="b1"',
    '',
    '--b1',
    'Content-Type: text/plain',
    '',
    'Your message could not be delivered.',
    '--b1',
    'Content-Type: message/delivery-status',
    '',
    'Reporting-MTA: dns; mx.destinataire.test',
    '',
    `Final-Recipient: rfc822; ${to}`,
    'Action: failed',
    `Status: ${status}`,
    `Diagnostic-Code: smtp; 550 ${status} User unknown`,
    '',
    '--b1--',
    '',
  ].join('\r\n');

const arf = (to: string) =>
  [
    'From: abuse@fai.test',
    'Subject: complaint',
    'MIME-Version: 1.0',
    'Content-Type: multipart/report; report-type=feedback-report; boundary="b2"',
    '',
    '--b2',
    'Content-Type: text/plain',
    '',
    'This is an abuse report.',
    '--b2',
    'Content-Type: message/feedback-report',
    '',
    'Feedback-Type: abuse',
    'User-Agent: test/1.0',
    'Version: 1',
    `Original-Rcpt-To: ${to}`,
    '',
    '--b2--',
    '',
  ].join('\r\n');

async function sendAndReport(s: Sender, raw: (to: string) => string) {
  const to = recipient();
  const sent = await send(svc, s, { to });
  const messageId = sent.body.message.id as string;
  await inbound.send({ envelope: { from: '', to: verpReturnPath(s.spaceId, messageId, s.domain) }, raw: raw(to) });
  return { to, messageId };
}

const events = async (s: Sender, type: string) =>
  (await svc.call(s.apiKey, 'event_feed', { limit: 500 })).body.events.filter((e: { type: string }) => e.type === type);

t.test('a DSN to the VERP address bounces the right message, suppresses the address and marks it dead', async (t) => {
  const s = await sender(svc);
  const { to, messageId } = await sendAndReport(s, (to) => dsn(to, '5.1.1'));
  const message = await svc.call(s.apiKey, 'get_message', { message_id: messageId });
  t.match(message.body, { status: 'bounced', status_code: 'recipient_unknown' });
  const entry = JSON.parse((await svc.rt.redis.hget(spaceKeys(s.spaceId).suppressions, to))!);
  t.match(entry, { reason: 'bounce', source: messageId });
  t.ok(await deadAddress(svc.rt, to), 'dead for every space');
  const [bounced] = await events(s, 'mail.message.bounced');
  t.match(bounced.data, { message_id: messageId, status_code: 'recipient_unknown', status: '5.1.1', hard: true });
  const again = await send(svc, s, { to });
  t.equal(again.body.error.code, 'recipient_suppressed');
});

t.test('a DSN naming a copy: told and counted, the copy suppressed, the message keeps its status', async (t) => {
  const s = await sender(svc);
  const [to, cc] = [recipient(), recipient('copie')];
  const sent = await send(svc, s, { to, cc: [cc] });
  const messageId = sent.body.message.id as string;
  await inbound.send({
    envelope: { from: '', to: verpReturnPath(s.spaceId, messageId, s.domain) },
    raw: dsn(cc, '5.1.1'),
  });
  t.equal(
    (await svc.call(s.apiKey, 'get_message', { message_id: messageId })).body.status,
    'queued',
    'the message reached (or will reach) its to',
  );
  const bounced = (await events(s, 'mail.message.bounced')).find(
    (e: { data: { message_id: string } }) => e.data.message_id === messageId,
  );
  t.match(bounced?.data, { to, recipient: cc, status: '5.1.1', hard: true });
  t.match(bounced?.subject.person, { email: cc });
  t.ok(await svc.rt.redis.hget(spaceKeys(s.spaceId).suppressions, cc), 'the unknown copy is suppressed');
  t.equal(await svc.rt.redis.hget(spaceKeys(s.spaceId).suppressions, to), null, 'not its to');
  t.ok(await deadAddress(svc.rt, cc), 'dead for every space');
  t.equal(
    await svc.rt.redis.hget(spaceKeys(s.spaceId).inboxSlots(s.inboxId), `bounced:${parisDay(Date.now())}`),
    '1',
    "counted in the inbox's figures",
  );
  const lines = (await svc.call(s.apiKey, 'list_events', { message_id: messageId })).body.events;
  t.match(
    lines.find((line: { kind: string }) => line.kind === 'message.bounced'),
    { text: `Rebond du message à « ${cc} » (statut SMTP 5.1.1, code recipient_unknown)` },
  );
});

t.test('a soft DSN (4.x.x) bounces the message without suppressing', async (t) => {
  const s = await sender(svc);
  const { to, messageId } = await sendAndReport(s, (to) => dsn(to, '4.4.7'));
  t.match((await svc.call(s.apiKey, 'get_message', { message_id: messageId })).body, {
    status: 'bounced',
    status_code: 'smtp_4xx',
  });
  t.equal(await svc.rt.redis.hget(spaceKeys(s.spaceId).suppressions, to), null);
});

t.test('a complaint suppresses the address and emits mail.contact.complained', async (t) => {
  const s = await sender(svc);
  const { to } = await sendAndReport(s, arf);
  t.match(JSON.parse((await svc.rt.redis.hget(spaceKeys(s.spaceId).suppressions, to))!), { reason: 'complaint' });
  const [complained] = await events(s, 'mail.contact.complained');
  t.match(complained.data, { address: to, reason: 'complaint' });
});

t.test('a DSN or a complaint naming a received message changes nothing; the scripts refuse it not_found', async (t) => {
  const s = await sender(svc);
  const from = recipient('ecrit');
  await inbound.send({ from, to: s.address, subject: 'Une question', text: 'Bonjour' });
  const received = (await svc.call(s.apiKey, 'list_threads', { inbox_id: s.inboxId })).body.items[0];
  const messageId = (await svc.call(s.apiKey, 'get_thread', { thread_id: received.id })).body.messages[0].id as string;
  const keys = spaceKeys(s.spaceId);
  const before = await svc.rt.redis.hgetall(keys.message(messageId));
  for (const raw of [dsn(from, '5.1.1'), arf(from)]) {
    await inbound
      .send({ envelope: { from: '', to: verpReturnPath(s.spaceId, messageId, s.domain) }, raw })
      .catch(() => null);
  }
  t.same(await svc.rt.redis.hgetall(keys.message(messageId)), before, 'the received message is as it was');
  t.equal(await svc.rt.redis.hget(keys.suppressions, from), null, 'its sender is not suppressed');
  t.same(await events(s, 'mail.message.bounced'), []);
  t.same(await events(s, 'mail.contact.complained'), []);
  const day = parisDay(Date.now());
  const complaint = messageLua.recordComplaint(
    svc.rt.scripts,
    { message: keys.message(messageId), inboxSlots: keys.inboxSlots(s.inboxId) },
    { today: day, nowIso: new Date().toISOString() },
  );
  await t.rejects(complaint, { code: 'not_found' }, 'recordComplaint: an inbound message is none of ours');
  const bounce = messageLua.recordBounce(
    svc.rt.scripts,
    {
      message: keys.message(messageId),
      inboxSlots: keys.inboxSlots(s.inboxId),
      events: keys.events,
      journal: keys.journal,
      journalIndex: keys.journalIndex,
    },
    {
      statusCode: 'recipient_unknown',
      hard: true,
      copy: false,
      today: day,
      lineId: '',
      lineJson: '',
      lineRefs: '[]',
      event: '',
    },
  );
  await t.rejects(bounce, { code: 'not_found' }, 'recordBounce: the same');
  t.same(await svc.rt.redis.hgetall(keys.message(messageId)), before);
});

t.test(
  'the mailto unsubscribe address works like the one-click link, in any case, and in its first form',
  async (t) => {
    const s = await sender(svc);
    const to = recipient();
    const sent = await send(svc, s, { to });
    const { mailto } = unsubscribeLink(svc.rt, s.spaceId, sent.body.message.id, to, false);
    const flipped = mailto.replace(/.@/, (end) => (end[0] === 'a' ? 'b@' : 'a@'));
    const forged = await inbound.send({ from: to, to: flipped, subject: 'x', text: 'x' }).catch((e) => e);
    t.equal(forged.responseCode, 550, 'another mac: refused at RCPT');
    const unknown = unsubscribeLink(svc.rt, s.spaceId, svc.rt.ids.next('message'), to, false).mailto;
    t.equal(
      (await inbound.send({ from: to, to: unknown, subject: 'x', text: 'x' }).catch((e) => e)).responseCode,
      550,
      'a message that does not exist',
    );
    await inbound.send({ from: to, to: mailto.toUpperCase(), subject: 'unsubscribe', text: 'unsubscribe' });
    t.match(
      JSON.parse((await svc.rt.redis.hget(spaceKeys(s.spaceId).suppressions, to))!),
      { reason: 'unsubscribe' },
      "the recipient is the message's",
    );

    // Mail sent before the short form carries `unsubscribe+<the https token>`: still honoured.
    const other = recipient();
    const earlier = await send(svc, s, { to: other });
    const { url } = unsubscribeLink(svc.rt, s.spaceId, earlier.body.message.id, other, false);
    await inbound.send({
      from: other,
      to: `unsubscribe+${url.slice(url.lastIndexOf('/') + 1)}@${mailto.split('@')[1]}`,
      subject: 'stop',
      text: 'stop',
    });
    t.match(JSON.parse((await svc.rt.redis.hget(spaceKeys(s.spaceId).suppressions, other))!), {
      reason: 'unsubscribe',
    });
  },
);

t.test('late bounces for a deleted inbox are recorded and taken with 250, though the breaker would trip', async (t) => {
  const s = await sender(svc);
  await svc.rt.redis.hset(spaceKeys(s.spaceId).inboxSlots(s.inboxId), `sent:${parisDay(svc.clock.now())}`, 20);
  const sent = await Promise.all(
    [recipient(), recipient()].map(async (to) => ({ to, id: (await send(svc, s, { to })).body.message.id as string })),
  );
  t.equal((await svc.call(s.apiKey, 'delete_inbox', { inbox_id: s.inboxId, confirm: true })).status, 200);
  for (const { to, id } of sent) {
    const answer = await inbound.send({
      envelope: { from: '', to: verpReturnPath(s.spaceId, id, s.domain) },
      raw: dsn(to, '5.1.1'),
    });
    t.match(answer.response, /^250 /, 'the reporting MTA is told it arrived');
  }
  t.equal(
    await svc.rt.redis.hget(spaceKeys(s.spaceId).inboxSlots(s.inboxId), `bounced:${parisDay(svc.clock.now())}`),
    '2',
    'both counted',
  );
  t.equal(await svc.rt.redis.hget(spaceKeys(s.spaceId).inbox(s.inboxId), 'status'), 'deleted');
});

t.test(
  'enough hard bounces suspend the inbox; sending is then refused inbox_suspended, receiving goes on',
  async (t) => {
    const s = await sender(svc);
    // 20 departures recorded today, as the send worker counts them (lua/message/finishDelivery).
    await svc.rt.redis.hset(spaceKeys(s.spaceId).inboxSlots(s.inboxId), `sent:${parisDay(svc.clock.now())}`, 20);
    await sendAndReport(s, (to) => dsn(to, '5.1.1'));
    t.equal(
      (await svc.call(s.apiKey, 'inbox_status', { inbox_id: s.inboxId })).body.inbox.status,
      'active',
      '1 of 20 is 5 %: not above',
    );
    await sendAndReport(s, (to) => dsn(to, '5.1.1'));
    const status = await svc.call(s.apiKey, 'inbox_status', { inbox_id: s.inboxId });
    t.match(status.body, {
      inbox: { status: 'suspended', status_reason: /rebonds/ },
      counts: { sent_7d: 20, bounced_7d: 2 },
    });
    t.equal(status.body.circuit_breaker.bounce_rate, 0.1);
    t.equal((await events(s, 'mail.inbox.suspended')).length, 1);
    const refused = await send(svc, s);
    t.equal(refused.body.error.code, 'inbox_suspended');
    await inbound.send({ from: recipient(), to: s.address, subject: 'Toujours là ?', text: 'Bonjour' });
    const threads = await svc.call(s.apiKey, 'list_threads', { inbox_id: s.inboxId, unread: true });
    t.equal(threads.body.items.length, 1, 'a suspended inbox still receives');
  },
);
