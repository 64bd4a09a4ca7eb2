/**
 * Hostile attachments read by get_attachment: an HTML file nested past HTML_MAX_DEPTH or
 * taking longer than its time, a PDF that inflates to 1 GB. Each answers 200 with `text: null` and why
 * (`text_unavailable`), never a 500, while the front end goes on answering.
 */
import t from 'tap';
import { MASTER_KEY } from '../helpers/domains.js';
import { inflatingPdf, nestedHtmlOf } from '../helpers/hostile.mjs';
import { startInbound } from '../helpers/inbound.js';
import { recipient, sender } from '../helpers/outbound.js';
import { startService, type TestService } from '../helpers/service.js';

// No PDF time limit to meet first on a busy machine: the memory limit is what ends the inflating PDF.
const svc = await startService({ env: { MAILBOX_MASTER_KEY: MASTER_KEY, PDF_TIME_LIMIT_MS: '600000' } });
/** HTML read whatever its depth, within 4 s: the nested file then runs into the time limit (it needs some 30). */
const slow = await startService({
  env: { MAILBOX_MASTER_KEY: MASTER_KEY, HTML_MAX_DEPTH: '10000000', CONTENT_TIME_LIMIT_MS: '4000' },
});

/** 2 MB of HTML some 180,000 elements deep. */
const hostileHtml = Buffer.from(nestedHtmlOf(2 * 1024 * 1024));

/** A mail with these files, received in a new space's inbox: the space's key, its message and its attachments by name. */
async function received(service: TestService, files: { filename: string; content: Buffer; contentType: string }[]) {
  const s = await sender(service);
  const inbound = await startInbound(service);
  await inbound.send({
    from: recipient('piege'),
    to: s.address,
    subject: 'Pièces',
    text: 'Voici.',
    attachments: files,
  });
  const threads = await service.call(s.apiKey, 'list_threads', { inbox_id: s.inboxId });
  const thread = await service.call(s.apiKey, 'get_thread', { thread_id: threads.body.items[0].id });
  const message = thread.body.messages[0];
  const idOf = (name: string): string => message.attachments.find((a: { filename: string }) => a.filename === name).id;
  return { apiKey: s.apiKey, messageId: message.id as string, idOf };
}

t.test('an HTML file nested 180,000 deep: text null, depth_limit; a plain HTML file beside it is read', async (t) => {
  const mail = await received(svc, [
    { filename: 'piege.html', content: hostileHtml, contentType: 'text/html' },
    { filename: 'releve.html', content: Buffer.from('<p>Solde : 120 €</p>'), contentType: 'text/html' },
  ]);
  const res = await svc.call(mail.apiKey, 'get_attachment', {
    message_id: mail.messageId,
    attachment_id: mail.idOf('piege.html'),
  });
  t.equal(res.status, 200, JSON.stringify(res.body));
  t.match(res.body, { text: null, text_unavailable: 'depth_limit', size: hostileHtml.length });
  const plain = await svc.call(mail.apiKey, 'get_attachment', {
    message_id: mail.messageId,
    attachment_id: mail.idOf('releve.html'),
  });
  t.match(plain.body, { text: 'Solde : 120 €', text_unavailable: null });
});

t.test(
  'an HTML file read past its time: text null, time_limit, and /healthz answered meanwhile; the next file is read',
  async (t) => {
    const mail = await received(slow, [
      { filename: 'piege.html', content: hostileHtml, contentType: 'text/html' },
      { filename: 'notes.txt', content: Buffer.from('Rendez-vous mardi.'), contentType: 'text/plain' },
    ]);
    let answered = false;
    const reading = slow
      .call(mail.apiKey, 'get_attachment', { message_id: mail.messageId, attachment_id: mail.idOf('piege.html') })
      .finally(() => (answered = true));
    let health = 0;
    while (!answered) {
      const res = await fetch(`${slow.url}/healthz`);
      if (res.ok && !answered) health++;
      await res.arrayBuffer();
    }
    const res = await reading;
    t.equal(res.status, 200, JSON.stringify(res.body));
    t.match(res.body, { text: null, text_unavailable: 'time_limit' });
    t.ok(health > 0, `/healthz answered ${health} times while the file was read`);
    const next = await slow.call(mail.apiKey, 'get_attachment', {
      message_id: mail.messageId,
      attachment_id: mail.idOf('notes.txt'),
    });
    t.match(next.body, { text: 'Rendez-vous mardi.', text_unavailable: null });
  },
);

t.test('a 1 MB PDF that inflates to 1 GB: text null, memory_limit, over HTTP and over MCP', async (t) => {
  const mail = await received(svc, [
    { filename: 'facture.pdf', content: inflatingPdf(1024 * 1024 * 1024), contentType: 'application/pdf' },
  ]);
  const res = await svc.call(mail.apiKey, 'get_attachment', {
    message_id: mail.messageId,
    attachment_id: mail.idOf('facture.pdf'),
  });
  t.equal(res.status, 200, JSON.stringify(res.body));
  t.match(res.body, { text: null, text_unavailable: 'memory_limit' });
  const client = await svc.mcp(mail.apiKey);
  const answer = await client.callTool({
    name: 'get_attachment',
    arguments: { message_id: mail.messageId, attachment_id: mail.idOf('facture.pdf') },
  });
  t.notOk(answer.isError);
  t.match(answer.structuredContent, { text: null, text_unavailable: 'memory_limit' });
  t.match((answer.content as { text?: string }[])[0]!.text, /Texte non lu \(memory_limit\)/);
});
