/**
 * Attachments received over real SMTP (docs/contract.md, Decision 10): stored in the blob store, listed on the message,
 * read with get_attachment (bytes, signed link, extracted text, MCP embedded resource). The same file
 * runs on the S3 store with `npm run test:s3`.
 */
import { readFileSync } from 'node:fs';
import t from 'tap';
import { spaceKeys } from '../../src/redis/keys.js';
import { blobKey } from '../../src/blobs/store.js';
import { DOWNLOAD_LINK_TTL_MS } from '../../src/blobs/links.js';
import { ManualClock } from '../../src/clock.js';
import { startInbound } from '../helpers/inbound.js';
import { recipient, sender, type Sender } from '../helpers/outbound.js';
import { MASTER_KEY } from '../helpers/domains.js';
import { startService } from '../helpers/service.js';

const clock = new ManualClock(Date.now());
const svc = await startService({ clock, env: { MAILBOX_MASTER_KEY: MASTER_KEY } });
const inbound = await startInbound(svc);

const pdf = readFileSync(new URL('../fixtures/facture.pdf', import.meta.url));
const png = readFileSync(new URL('../fixtures/pixel.png', import.meta.url));
const csv = Buffer.from('réf;montant\nA-1;120,50\nA-2;80\n', 'utf8');

/** A mail with a PDF, a CSV and an inline image, received in the sender's inbox; its message as get_thread shows it. */
async function receiveFiles(s: Sender, extra: { filename: string; content: Buffer; contentType: string }[] = []) {
  const from = recipient('fournisseur');
  await inbound.send({
    from,
    to: s.address,
    subject: 'Facture de mars',
    text: 'Bonjour, voici la facture.',
    html: '<p>Bonjour, voici la facture.</p><img src="cid:logo@fournisseur">',
    attachments: [
      { filename: 'facture.pdf', content: pdf, contentType: 'application/pdf' },
      { filename: 'lignes.csv', content: csv, contentType: 'text/csv' },
      { filename: 'logo.png', content: png, contentType: 'image/png', cid: 'logo@fournisseur' },
      ...extra,
    ],
  });
  const threads = await svc.call(s.apiKey, 'list_threads', { inbox_id: s.inboxId });
  const thread = threads.body.items.find((th: { contact: string }) => th.contact === from);
  const read = await svc.call(s.apiKey, 'get_thread', { thread_id: thread.id });
  return read.body.messages[0];
}

const byName = (message: { attachments: { id: string; filename: string }[] }, name: string) =>
  message.attachments.find((a) => a.filename === name)!;

t.test(
  'a received PDF, CSV and inline image are stored and listed on the message, in get_thread and get_message',
  async (t) => {
    const s = await sender(svc);
    const message = await receiveFiles(s);
    t.equal(message.attachments.length, 3);
    t.match(byName(message, 'facture.pdf'), {
      id: /^att_/,
      content_type: 'application/pdf',
      size: pdf.length,
      inline: false,
      content_id: null,
      sha256: /^[0-9a-f]{64}$/,
    });
    t.match(byName(message, 'lignes.csv'), { content_type: 'text/csv', size: csv.length, inline: false });
    t.match(byName(message, 'logo.png'), {
      content_type: 'image/png',
      size: png.length,
      inline: true,
      content_id: '<logo@fournisseur>',
    });
    const single = await svc.call(s.apiKey, 'get_message', { message_id: message.id });
    t.same(single.body.attachments, message.attachments);
    const stored = await svc.rt.redis.hget(spaceKeys(s.spaceId).message(message.id), 'source');
    const source = await svc.rt.ports.blobs.getSource(s.spaceId, stored!);
    t.match(source!.toString('latin1'), /Subject: Facture de mars/, 'the raw source is kept');
    const feed = await svc.call(s.apiKey, 'event_feed', {});
    const received = feed.body.events.find(
      (e: { type: string; data: { message_id: string } }) => e.data.message_id === message.id,
    );
    t.same(received.data.attachments, message.attachments, 'the event lists the same attachment objects');
  },
);

t.test(
  'get_attachment: identical bytes behind the signed link, served as a download; the text of the PDF and the CSV',
  async (t) => {
    const s = await sender(svc);
    const message = await receiveFiles(s);
    for (const [name, bytes, text] of [
      ['facture.pdf', pdf, /La facture 4521 est due le 3 mars\./],
      ['lignes.csv', csv, /A-1;120,50/],
      ['logo.png', png, null],
    ] as const) {
      const res = await svc.call(s.apiKey, 'get_attachment', {
        message_id: message.id,
        attachment_id: byName(message, name).id,
      });
      t.equal(res.status, 200, JSON.stringify(res.body));
      if (text) t.match(res.body.text, text);
      else t.equal(res.body.text, null);
      t.equal(Date.parse(res.body.download_expires_at), clock.now() + DOWNLOAD_LINK_TTL_MS);
      const download = await fetch(res.body.download_url);
      t.equal(download.status, 200);
      t.same(Buffer.from(await download.arrayBuffer()), bytes, `${name}: the same bytes`);
      t.match(download.headers.get('content-disposition'), new RegExp(`^attachment; filename="${name}"`));
      t.equal(download.headers.get('x-content-type-options'), 'nosniff');
    }
  },
);

t.test('an HTML attachment is never served as a page', async (t) => {
  const s = await sender(svc);
  const html = Buffer.from('<html><body><script>alert(1)</script><p>Relevé de compte</p></body></html>');
  const message = await receiveFiles(s, [{ filename: 'releve.html', content: html, contentType: 'text/html' }]);
  const res = await svc.call(s.apiKey, 'get_attachment', {
    message_id: message.id,
    attachment_id: byName(message, 'releve.html').id,
  });
  t.match(res.body.text, /Relevé de compte/);
  t.notMatch(res.body.text, /<script>/);
  const download = await fetch(res.body.download_url);
  t.equal(download.headers.get('content-type'), 'application/octet-stream');
  t.match(download.headers.get('content-disposition'), /^attachment;/);
});

t.test(
  'scripts, HTML and XML are served as bytes whatever type their sender declared, as a browser parses it; inert types keep theirs',
  async (t) => {
    const s = await sender(svc);
    // Each as a browser reads it: a list is not one type, `x-` forms, case and parameters are spellings.
    const declared: [string, RegExp][] = [
      ['application/x-javascript', /^application\/octet-stream$/],
      ['text/vbscript', /^application\/octet-stream$/],
      ['text/ecmascript', /^application\/octet-stream$/],
      ['application/rss+xml', /^application\/octet-stream$/],
      ['image/svg+xml', /^application\/octet-stream$/],
      ['text/xsl', /^application\/octet-stream$/],
      ['text/plain, text/html', /^application\/octet-stream$/],
      ['text/x-html', /^application\/octet-stream$/],
      ['TEXT/HTML; charset=utf-8', /^application\/octet-stream$/],
      ['text/html;x=1', /^application\/octet-stream$/],
      ['application/x-xhtml+xml', /^application\/octet-stream$/],
      ['application/X-ECMAScript', /^application\/octet-stream$/],
      ['text/plain', /^text\/plain/],
      ['Text/CSV; Charset=UTF-8', /^text\/csv$/],
    ];
    const message = await receiveFiles(
      s,
      declared.map(([type], i) => ({ filename: `f${i}.txt`, content: Buffer.from(`fichier ${i}`), contentType: type })),
    );
    for (const [i, [type, served]] of declared.entries()) {
      const res = await svc.call(s.apiKey, 'get_attachment', {
        message_id: message.id,
        attachment_id: byName(message, `f${i}.txt`).id,
      });
      const download = await fetch(res.body.download_url);
      await download.arrayBuffer();
      t.match(download.headers.get('content-type'), served, type);
    }
  },
);

t.test('over MCP, a file up to 1 MB also comes as an embedded resource', async (t) => {
  const s = await sender(svc);
  const message = await receiveFiles(s);
  const client = await svc.mcp(s.apiKey);
  const answer = await client.callTool({
    name: 'get_attachment',
    arguments: { message_id: message.id, attachment_id: byName(message, 'lignes.csv').id },
  });
  const content = answer.content as { type: string; text?: string; resource?: { blob: string; mimeType: string } }[];
  t.match(content[0]!.text, /lignes\.csv/);
  const embedded = content.find((part) => part.type === 'resource')!;
  t.equal(embedded.resource!.mimeType, 'text/csv');
  t.same(Buffer.from(embedded.resource!.blob, 'base64'), csv);
});

t.test(
  'over HTTP, a file with no text is not read (nothing to embed there): get_attachment answers even when its blob is gone',
  async (t) => {
    const s = await sender(svc);
    const message = await receiveFiles(s);
    const image = byName(message, 'logo.png') as unknown as { id: string; sha256: string };
    await svc.rt.ports.blobs.remove([blobKey(s.spaceId, image.sha256)]);
    const res = await svc.call(s.apiKey, 'get_attachment', { message_id: message.id, attachment_id: image.id });
    t.equal(res.status, 200, JSON.stringify(res.body));
    t.equal(res.body.text, null);
    const client = await svc.mcp(s.apiKey);
    const answer = await client.callTool({
      name: 'get_attachment',
      arguments: { message_id: message.id, attachment_id: image.id },
    });
    t.equal(answer.isError, true, 'over MCP the same file is read to be embedded, and its loss is told');
  },
);

t.test(
  "get_attachment refusals: an unknown attachment, another space's message, a link forged or expired, no master key",
  async (t) => {
    const s = await sender(svc);
    const other = await svc.space();
    const message = await receiveFiles(s);
    const pdfId = byName(message, 'facture.pdf').id;
    const refused = async (key: string, args: Record<string, unknown>, code: string, status: number, why: string) => {
      const res = await svc.call(key, 'get_attachment', { message_id: message.id, attachment_id: pdfId, ...args });
      t.equal(res.body.error?.code, code, why);
      t.equal(res.status, status, why);
    };
    await refused(
      s.apiKey,
      { attachment_id: 'att_0000000000aaaaaaaaaa' },
      'not_found',
      404,
      'an attachment the message does not carry',
    );
    await refused(other.apiKey, {}, 'not_found', 404, "another space's message");
    await refused(s.apiKey, { attachment_id: 'facture.pdf' }, 'invalid_argument', 400, 'not an attachment id');
    const link = (await svc.call(s.apiKey, 'get_attachment', { message_id: message.id, attachment_id: pdfId })).body
      .download_url as string;
    const forged = link.replace(/\.[^.]+$/, `.${'A'.repeat(43)}`);
    t.equal((await fetch(forged)).status, 404, 'a forged signature');
    const otherAttachment = link.replace(pdfId, byName(message, 'lignes.csv').id);
    t.equal((await fetch(otherAttachment)).status, 404, 'a signature moved to another attachment');
    clock.advance(DOWNLOAD_LINK_TTL_MS + 1);
    const expired = await fetch(link);
    t.equal(expired.status, 404, 'an expired link');
    t.match(await expired.json(), { error: { code: 'not_found' } });

    const masterKey = svc.rt.config.masterKey;
    svc.rt.config.masterKey = null;
    t.teardown(() => void (svc.rt.config.masterKey = masterKey));
    await refused(s.apiKey, {}, 'encryption_unavailable', 503, 'no master key: no signed link');
  },
);

t.test('a received body over 2 KB lives in the blob store and reads whole, reply_text too', async (t) => {
  const s = await sender(svc);
  const text = `Bonjour,\n${'voici le détail de la commande, ligne après ligne. '.repeat(80)}\nCordialement.`;
  await inbound.send({ from: recipient('long'), to: s.address, subject: 'Très long', text });
  const threads = await svc.call(s.apiKey, 'list_threads', { inbox_id: s.inboxId });
  const read = await svc.call(s.apiKey, 'get_thread', { thread_id: threads.body.items[0].id });
  const message = read.body.messages[0];
  t.equal(message.text.trim(), text);
  t.match(message.reply_text, /Cordialement\.$/);
  t.equal(
    await svc.rt.redis.hget(spaceKeys(s.spaceId).message(message.id), 'text'),
    null,
    'the text left out of the hash',
  );
  const feed = await svc.call(s.apiKey, 'event_feed', {});
  t.equal(
    feed.body.events.find((e: { data: { message_id: string } }) => e.data.message_id === message.id).data.text.trim(),
    text,
  );
});
