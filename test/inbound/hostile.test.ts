/**
 * Hostile mail over real SMTP: a message whose text cannot be read within the limits on
 * untrusted content (docs/operations.md) is taken and stored, its text marked unavailable, while the
 * process goes on answering; never a 4xx for a property of the content. The MIME part cap answers its
 * 554 before the parser's own cap.
 */
import t from 'tap';
import { MASTER_KEY } from '../helpers/domains.js';
import { nestedHtmlOf } from '../helpers/hostile.mjs';
import { atData, startInbound } from '../helpers/inbound.js';
import { recipient, sender, type Sender } from '../helpers/outbound.js';
import { startService, type TestService } from '../helpers/service.js';

const svc = await startService({ env: { MAILBOX_MASTER_KEY: MASTER_KEY } });
/** HTML read whatever its depth, within 4 s: the nested document then runs into the time limit (it needs some 30). */
const slow = await startService({
  env: { MAILBOX_MASTER_KEY: MASTER_KEY, HTML_MAX_DEPTH: '10000000', CONTENT_TIME_LIMIT_MS: '4000' },
});

/** 2 MB of HTML some 180,000 elements deep, as the only body of a mail. */
const hostileHtml = nestedHtmlOf(2 * 1024 * 1024);

/** The last message received by the inbox, as get_message shows it. */
async function lastReceived(service: TestService, s: Sender) {
  const threads = await service.call(s.apiKey, 'list_threads', { inbox_id: s.inboxId });
  const thread = await service.call(s.apiKey, 'get_thread', { thread_id: threads.body.items[0].id });
  return (await service.call(s.apiKey, 'get_message', { message_id: thread.body.messages.at(-1).id })).body;
}

t.test(
  '2 MB of deeply nested HTML-only mail is taken and stored, its text marked depth_limit; the event says so',
  async (t) => {
    const inbound = await startInbound(svc);
    const s = await sender(svc);
    const from = recipient('piege');
    const info = await inbound.send({ from, to: s.address, subject: 'Imbriqué', html: hostileHtml });
    t.match(info.response, /^250 /);
    const message = await lastReceived(svc, s);
    t.match(message, {
      subject: 'Imbriqué',
      text: '',
      text_unavailable: 'depth_limit',
      has_html: true,
      reply_text: '',
    });
    t.equal(message.html.length >= hostileHtml.length, true, 'the HTML is kept whole');
    const feed = await svc.call(s.apiKey, 'event_feed', {});
    const received = feed.body.events.find((e: { data: { message_id: string } }) => e.data.message_id === message.id);
    t.match(received.data, { text: '', text_unavailable: 'depth_limit' });
    const plain = await inbound.send({ from, to: s.address, subject: 'Ensuite', html: '<p>Bonjour <b>Paul</b></p>' });
    t.match(plain.response, /^250 /);
    const next = await lastReceived(svc, s);
    t.equal(next.text, 'Bonjour Paul', 'the next HTML-only mail gets its text');
    t.notOk('text_unavailable' in next, 'and no mark');
  },
);

t.test(
  'an HTML read that runs past its time is ended: the mail is stored (time_limit) while /healthz answers',
  async (t) => {
    const inbound = await startInbound(slow);
    const s = await sender(slow);
    const session = await atData(inbound.port, s.address);
    let replied = false;
    const reply = session
      .say(`From: <piege@client.test>\r\nSubject: Lent\r\nContent-Type: text/html\r\n\r\n${hostileHtml}\r\n.`)
      .finally(() => (replied = true));
    // The HTML's text is read in a worker thread for up to 4 s: this thread answers /healthz meanwhile.
    let answered = 0;
    while (!replied) {
      const health = await fetch(`${slow.url}/healthz`);
      if (health.ok && !replied) answered++;
      await health.arrayBuffer();
    }
    t.match(await reply, /^250 /);
    t.ok(answered > 0, `/healthz answered ${answered} times while the message was read`);
    t.match(await lastReceived(slow, s), { subject: 'Lent', text: '', text_unavailable: 'time_limit' });
  },
);

t.test('MIME parts: 999 and 1,000 are taken, 1,001 get the documented 554 (not the parser 451)', async (t) => {
  const inbound = await startInbound(svc);
  const s = await sender(svc);
  const parts = (n: number) =>
    `From: <parts@client.test>\r\nSubject: ${n} parties\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n${'--b\r\n\r\nx\r\n'.repeat(n)}--b--`;
  const session = await atData(inbound.port, s.address);
  for (const [count, expected] of [
    [999, /^250 /],
    [1000, /^250 /],
    [1001, /^554 5\.6\.0 Trop de parties MIME \(au plus 1000\)/],
  ] as const) {
    t.match(await session.say(`${parts(count)}\r\n.`), expected, `${count} parts`);
    t.match(await session.say(`MAIL FROM:<${recipient()}>`), /^250 /);
    t.match(await session.say(`RCPT TO:<${s.address}>`), /^250 /);
    t.match(await session.say('DATA'), /^354 /);
  }
  const threads = await svc.call(s.apiKey, 'list_threads', { inbox_id: s.inboxId });
  t.same(threads.body.items.map((thread: { subject: string }) => thread.subject).sort(), [
    '1000 parties',
    '999 parties',
  ]);
});

t.test(
  'a MIME that cannot be read within its time is refused with a 5xx, never a 4xx: the same bytes would fail again',
  async (t) => {
    // 1 ms against some ms of parsing for 1 MB of text: the read runs past its time.
    const hurried = await startService({ env: { MAILBOX_MASTER_KEY: MASTER_KEY, CONTENT_TIME_LIMIT_MS: '1' } });
    const inbound = await startInbound(hurried);
    const s = await sender(hurried);
    const session = await atData(inbound.port, s.address);
    t.match(
      await session.say(`From: <long@client.test>\r\nSubject: Long\r\n\r\n${'ligne de texte\r\n'.repeat(64 * 1024)}.`),
      /^554 5\.6\.0 Message trop long à lire/,
    );
    t.match(await session.say(`MAIL FROM:<${recipient()}>`), /^250 /, 'the session goes on');
  },
);
