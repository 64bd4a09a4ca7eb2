/**
 * Mail over real SMTP whose From gives no usable address (none, a name only, an unparseable one): it is
 * stored in a thread without a correspondent, readable, never threaded with another such mail by
 * subject, and reply_to_thread refuses to answer it rather than queue a message to nobody.
 */
import t from 'tap';
import { startInbound } from '../helpers/inbound.js';
import { MASTER_KEY } from '../helpers/domains.js';
import { inboxState, recipient, sender } from '../helpers/outbound.js';
import { startService } from '../helpers/service.js';

const svc = await startService({ env: { MAILBOX_MASTER_KEY: MASTER_KEY, SEND_WINDOW: 'always' } });
const inbound = await startInbound(svc);

/** A raw message to `to`, its From line as given ('' for none), the envelope sender a valid one. */
const raw = (to: string, fromLine: string, subject: string) =>
  inbound.send({
    envelope: { from: recipient('enveloppe'), to: [to] },
    raw: `${fromLine}To: ${to}\r\nSubject: ${subject}\r\nMessage-ID: <${Math.random().toString(36).slice(2)}@expediteur.test>\r\n\r\nBonjour.\r\n`,
  });

const FROM_LINES: [string, string][] = [
  ['no From header', ''],
  ['a name without an address', 'From: Jean Dupont\r\n'],
  ['an unparseable address', 'From: "Jean" <jean@>\r\n'],
  ['an empty address', 'From: <>\r\n'],
];

for (const [name, fromLine] of FROM_LINES) {
  t.test(`${name}: stored without a correspondent, readable; reply_to_thread refused, nothing written`, async (t) => {
    const s = await sender(svc);
    await raw(s.address, fromLine, 'Sans expéditeur');
    const list = await svc.call(s.apiKey, 'list_threads', { inbox_id: s.inboxId });
    t.equal(list.status, 200, JSON.stringify(list.body));
    t.equal(list.body.items.length, 1);
    const thread = list.body.items[0];
    t.equal(thread.contact, null, 'no correspondent');
    const read = await svc.call(s.apiKey, 'get_thread', { thread_id: thread.id });
    t.equal(read.status, 200, JSON.stringify(read.body));
    t.match(read.body.messages, [{ direction: 'inbound', from: '', subject: 'Sans expéditeur' }]);
    const feed = await svc.call(s.apiKey, 'event_feed', {});
    const received = feed.body.events.find((e: { type: string }) => e.type === 'mail.message.received');
    t.match(received, { subject: { person: null }, data: { from: null } });
    const journal = await svc.call(s.apiKey, 'list_events', { thread_id: thread.id });
    t.match(journal.body.events[0].text, /^Réception du message sans adresse d'expéditeur : « Sans expéditeur »$/);

    const before = await inboxState(svc, s);
    for (const dryRun of [false, true]) {
      const reply = await svc.call(s.apiKey, 'reply_to_thread', {
        thread_id: thread.id,
        text: 'Merci.',
        dry_run: dryRun,
      });
      t.equal(reply.status, 400);
      t.equal(reply.body.error.code, 'invalid_argument');
      t.same(reply.body.error.hint, { parameter: 'thread_id' });
      t.match(reply.body.error.message, /correspondant/);
    }
    t.same(await inboxState(svc, s), before, 'nothing queued, nothing written');
  });
}

t.test('two mails without a correspondent and with the same subject open two threads', async (t) => {
  const s = await sender(svc);
  await raw(s.address, '', 'Même objet');
  await raw(s.address, "From: Quelqu'un\r\n", 'Même objet');
  const list = await svc.call(s.apiKey, 'list_threads', { inbox_id: s.inboxId });
  t.same(
    list.body.items.map((th: { contact: string | null; message_count: number }) => [th.contact, th.message_count]),
    [
      [null, 1],
      [null, 1],
    ],
  );
});

t.test('a mail with a usable From still opens a thread with its correspondent, who can be answered', async (t) => {
  const s = await sender(svc);
  const from = recipient('lisible');
  await raw(s.address, `From: Marie <${from.toUpperCase()}>\r\n`, 'Bonjour');
  const list = await svc.call(s.apiKey, 'list_threads', { inbox_id: s.inboxId });
  t.match(list.body.items, [{ contact: from, contact_name: 'Marie' }]);
  const reply = await svc.call(s.apiKey, 'reply_to_thread', {
    thread_id: list.body.items[0].id,
    text: 'Merci.',
    dry_run: true,
  });
  t.equal(reply.status, 200, JSON.stringify(reply.body));
});
