/**
 * Outgoing attachments (docs/contract.md, Decision 10): new files in base64 and received files forwarded by id, checked
 * (every refusal here), stored before the message is queued, counted in the idempotency content, checked
 * but not stored by dry_run, shown in get_message and list_drafts, and sent in the DKIM-signed MIME to a
 * peer smtp-server, read back with mailparser and mailauth.
 */
import { readFileSync } from 'node:fs';
import { simpleParser } from 'mailparser';
import t from 'tap';
import { createTransport } from '../../src/delivery/transports.js';
import { ManualClock } from '../../src/clock.js';
import { spaceKeys } from '../../src/redis/keys.js';
import { blobSetMember } from '../../src/blobs/store.js';
import { deliverDue } from '../../src/workers/send.js';
import { MASTER_KEY } from '../helpers/domains.js';
import { startInbound } from '../helpers/inbound.js';
import { verifyDkim } from '../helpers/mail.js';
import { recipient, send, sender, type Sender } from '../helpers/outbound.js';
import { startService } from '../helpers/service.js';
import { startPeer } from '../helpers/smtp-peer.js';

const peer = await startPeer({ starttls: false });
const clock = new ManualClock(Date.now());
const svc = await startService({
  clock,
  env: {
    MAILBOX_MASTER_KEY: MASTER_KEY,
    SEND_WINDOW: 'always',
    SPACING_SECONDS: '0',
    OUTBOUND: `smtp://127.0.0.1:${peer.port}`,
    ATTACHMENT_MAX_BYTES: String(64 * 1024),
  },
});
const inbound = await startInbound(svc);
const transport = createTransport(svc.rt);
t.teardown(() => transport.close());

const pdf = readFileSync(new URL('../fixtures/facture.pdf', import.meta.url));
const png = readFileSync(new URL('../fixtures/pixel.png', import.meta.url));
const csv = Buffer.from('réf;montant\nA-1;120,50\n', 'utf8');
const b64 = (bytes: Buffer) => bytes.toString('base64');

/** A received mail carrying the PDF; its attachment id. */
async function receivedPdf(s: Sender): Promise<string> {
  const from = recipient('fournisseur');
  await inbound.send({
    from,
    to: s.address,
    subject: 'Facture',
    text: 'Ci-joint.',
    attachments: [{ filename: 'facture.pdf', content: pdf, contentType: 'application/pdf' }],
  });
  const threads = await svc.call(s.apiKey, 'list_threads', { inbox_id: s.inboxId });
  const thread = threads.body.items.find((th: { contact: string }) => th.contact === from);
  const read = await svc.call(s.apiKey, 'get_thread', { thread_id: thread.id });
  return read.body.messages[0].attachments[0].id;
}

t.test(
  'forward a received PDF with a new CSV: stored, listed, sent in the signed MIME with identical bytes',
  async (t) => {
    const s = await sender(svc);
    const pdfId = await receivedPdf(s);
    const res = await send(svc, s, {
      subject: 'Transfert',
      attachments: [
        { attachment_id: pdfId },
        { filename: 'lignes.csv', content_type: 'text/csv', content_base64: b64(csv) },
      ],
    });
    t.equal(res.status, 200, JSON.stringify(res.body));
    const listed = res.body.message.attachments;
    t.match(listed, [
      { id: /^att_/, filename: 'facture.pdf', content_type: 'application/pdf', size: pdf.length, inline: false },
      { filename: 'lignes.csv', content_type: 'text/csv', size: csv.length },
    ]);
    t.not(listed[0].id, pdfId, 'the forwarded file is a new attachment of the new message');
    t.same((await svc.call(s.apiKey, 'get_message', { message_id: res.body.message.id })).body.attachments, listed);
    // On S3 the raw source is an object too; on the file store it is in a segment (src/blobs/source-log.ts).
    const sourceIsBlob = svc.rt.config.blobStore.kind !== 'files';
    t.equal(
      (await svc.rt.ports.blobs.list(s.spaceId)).filter((b) => !b.key.endsWith('.tmp')).length,
      sourceIsBlob ? 3 : 2,
      'the PDF stored once, the CSV (and the source, an object on S3)',
    );
    t.ok(
      await svc.rt.redis.sismember(spaceKeys(s.spaceId).blobs, blobSetMember(listed[1].sha256)),
      'the CSV is in the blob set',
    );

    await deliverDue(svc.rt, transport, s.spaceId, s.inboxId);
    const got = await peer.next();
    const parsed = await simpleParser(got.raw);
    t.equal(parsed.subject, 'Transfert');
    t.same(
      parsed.attachments.map((a) => [a.filename, a.contentType, a.content]),
      [
        ['facture.pdf', 'application/pdf', pdf],
        ['lignes.csv', 'text/csv', csv],
      ],
    );
    const [signature] = await verifyDkim(svc.dns, got.raw);
    t.equal(signature?.status.result, 'pass', signature?.info ?? 'no signature');
  },
);

t.test('a reply and a draft carry files; list_drafts shows them; no content_type: the content decides', async (t) => {
  const s = await sender(svc);
  const first = await send(svc, s, { subject: 'Devis' });
  const reply = await svc.call(s.apiKey, 'reply_to_thread', {
    thread_id: first.body.thread.id,
    text: 'Le logo.',
    requires_approval: true,
    attachments: [{ filename: 'logo', content_base64: b64(png) }],
  });
  t.equal(reply.status, 200, JSON.stringify(reply.body));
  t.equal(reply.body.status, 'draft');
  t.match(reply.body.message.attachments, [{ filename: 'logo', content_type: 'image/png', size: png.length }]);
  const drafts = await svc.call(s.apiKey, 'list_drafts', { inbox_id: s.inboxId });
  t.same(drafts.body.items[0].attachments, reply.body.message.attachments);

  const draftId = reply.body.message.id;
  const same = await svc.call(s.apiKey, 'update_draft', {
    message_id: draftId,
    attachments: [{ filename: 'logo', content_base64: b64(png) }],
  });
  t.equal(same.body.revision, reply.body.message.revision, 'the same files: nothing changes');
  const replaced = await svc.call(s.apiKey, 'update_draft', {
    message_id: draftId,
    attachments: [{ filename: 'lignes.csv', content_base64: b64(csv) }],
  });
  t.equal(replaced.status, 200, JSON.stringify(replaced.body));
  t.match(replaced.body.attachments, [{ filename: 'lignes.csv', content_type: 'text/csv', size: csv.length }]);
  t.equal(replaced.body.attachments.length, 1, 'the new list replaces the old one');
  t.not(replaced.body.revision, reply.body.message.revision);
  t.ok(await svc.rt.redis.sismember(spaceKeys(s.spaceId).blobs, blobSetMember(replaced.body.attachments[0].sha256)));
  const bad = await svc.call(s.apiKey, 'update_draft', {
    message_id: draftId,
    attachments: [{ filename: 'x.bat', content_base64: b64(csv) }],
  });
  t.equal(bad.body.error.code, 'attachment_refused');
  t.equal(bad.body.error.hint.filename, 'x.bat');
  const cleared = await svc.call(s.apiKey, 'update_draft', { message_id: draftId, attachments: [] });
  t.same(cleared.body.attachments, []);
});

t.test('dry_run checks the files and stores nothing; the files count in the idempotency content', async (t) => {
  const s = await sender(svc);
  const to = recipient();
  const before = (await svc.rt.ports.blobs.list(s.spaceId)).length;
  const dry = await send(svc, s, { to, dry_run: true, attachments: [{ filename: 'a.csv', content_base64: b64(csv) }] });
  t.equal(dry.status, 200);
  t.equal((await svc.rt.ports.blobs.list(s.spaceId)).length, before, 'nothing stored');
  const dryRefused = await send(svc, s, {
    to,
    dry_run: true,
    attachments: [{ filename: 'a.exe', content_base64: b64(csv) }],
  });
  t.equal(dryRefused.body.error.code, 'attachment_refused', 'dry_run refuses what the send would');

  const key = { idempotency_key: `fichiers-${Date.now()}`, to };
  const once = await send(svc, s, { ...key, attachments: [{ filename: 'a.csv', content_base64: b64(csv) }] });
  t.equal(once.status, 200);
  const again = await send(svc, s, { ...key, attachments: [{ filename: 'a.csv', content_base64: b64(csv) }] });
  t.equal(again.body.replayed, true);
  const other = await send(svc, s, {
    ...key,
    attachments: [{ filename: 'a.csv', content_base64: b64(Buffer.from('autre\n')) }],
  });
  t.equal(other.body.error.code, 'idempotency_conflict', 'other bytes are other content');
});

t.test('every refusal of a file, the file named in the hint', async (t) => {
  const s = await sender(svc);
  const other = await sender(svc);
  const foreign = await receivedPdf(other);
  const refused = async (attachments: unknown[], code: string, filename: string | null, why: string) => {
    const res = await send(svc, s, { attachments });
    t.equal(res.body.error?.code, code, why);
    if (code === 'attachment_refused') {
      t.equal(res.status, 422, why);
      t.equal(res.body.error.hint.filename, filename, why);
      t.type(res.body.error.hint.reason, 'string');
    }
  };
  const file = (filename: string, content: Buffer, content_type?: string) => ({
    filename,
    content_base64: b64(content),
    ...(content_type ? { content_type } : {}),
  });
  await refused([file('../etc/passwd', csv)], 'attachment_refused', '../etc/passwd', 'a path');
  await refused([file('dossier\\a.csv', csv)], 'attachment_refused', 'dossier\\a.csv', 'a Windows path');
  await refused(
    [file('facture\u202Efdp.exe', csv)],
    'attachment_refused',
    'facture\u202Efdp.exe',
    'a bidirectional override',
  );
  await refused([file('a\nb.csv', csv)], 'attachment_refused', 'a\nb.csv', 'a control character');
  await refused([file('outil.exe', csv)], 'attachment_refused', 'outil.exe', 'an executable name');
  await refused([file('script.js', csv, 'text/plain')], 'attachment_refused', 'script.js', 'a script name');
  await refused(
    [file('run.bat.', csv, 'text/plain')],
    'attachment_refused',
    'run.bat.',
    'a script name behind a trailing dot (Windows saves run.bat)',
  );
  await refused(
    [file('outil.js ', csv, 'text/plain')],
    'attachment_refused',
    'outil.js ',
    'a script name behind a trailing space',
  );
  await refused([file('notes.txt', csv, 'application/x-sh')], 'attachment_refused', 'notes.txt', 'a script type');
  await refused(
    [file('notes.txt', Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200)]))],
    'attachment_refused',
    'notes.txt',
    'a program inside',
  );
  await refused(
    [file('facture.pdf', png, 'application/pdf')],
    'attachment_refused',
    'facture.pdf',
    'declared PDF, the content is a PNG',
  );
  await refused(
    [file('image.png', csv, 'image/png')],
    'attachment_refused',
    'image.png',
    'declared PNG, the content is text',
  );
  await refused(
    [file('gros.csv', Buffer.alloc(40 * 1024, 'a')), file('gros2.csv', Buffer.alloc(40 * 1024, 'b'))],
    'attachment_refused',
    'gros2.csv',
    'past ATTACHMENT_MAX_BYTES in total',
  );
  await refused([{ attachment_id: foreign }], 'not_found', null, "another space's attachment");
  await refused([{ attachment_id: 'att_0000000000aaaaaaaaaa' }], 'not_found', null, 'an unknown attachment');
  await refused([{ filename: 'a.csv', content_base64: '%%%' }], 'invalid_argument', null, 'not base64');
  await refused(
    Array.from({ length: 11 }, (_, i) => file(`f${i}.csv`, csv)),
    'invalid_argument',
    null,
    'more than 10 files',
  );
  await refused([{ filename: 'a.csv' }], 'invalid_argument', null, 'no content');
  const secret = await send(svc, s, { attachments: [file(`cle-${s.apiKey}.txt`, csv)] });
  t.equal(secret.body.error.code, 'secret_in_message', 'an API key in a file name');
  t.equal(secret.body.error.hint.parameter, 'attachments');
  t.equal(
    (await svc.call(s.apiKey, 'list_threads', { inbox_id: s.inboxId })).body.items.length,
    0,
    'nothing was written',
  );
});

t.test(
  'a forwarded file meets the rules of new ones: its name as received, a program inside whatever it is declared',
  async (t) => {
    const s = await sender(svc);
    const from = recipient('inconnu');
    const program = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200)]);
    await inbound.send({
      from,
      to: s.address,
      subject: 'Pièces',
      text: 'Ci-joint.',
      attachments: [
        { filename: 'facture.pdf', content: program, contentType: 'application/pdf' },
        { filename: 'rapport\u202Efdp.csv', content: csv, contentType: 'text/csv' },
        { filename: 'lignes.csv', content: csv, contentType: 'image/png' },
      ],
    });
    const threads = await svc.call(s.apiKey, 'list_threads', { inbox_id: s.inboxId });
    const thread = threads.body.items.find((th: { contact: string }) => th.contact === from);
    const [received] = (await svc.call(s.apiKey, 'get_thread', { thread_id: thread.id })).body.messages;
    const idOf = (name: string) => received.attachments.find((a: { filename: string }) => a.filename === name).id;
    for (const name of ['facture.pdf', 'rapport\u202Efdp.csv']) {
      const res = await send(svc, s, { attachments: [{ attachment_id: idOf(name) }] });
      t.equal(res.status, 422, name);
      t.equal(res.body.error.code, 'attachment_refused', name);
      t.equal(res.body.error.hint.filename, name);
    }
    const sloppy = await send(svc, s, { attachments: [{ attachment_id: idOf('lignes.csv') }] });
    t.equal(sloppy.status, 200, 'a type its sender declared wrongly leaves as received');
    t.match(sloppy.body.message.attachments, [{ filename: 'lignes.csv', content_type: 'image/png' }]);
  },
);

t.test(
  'the HTTP body limit rises by the base64 of ATTACHMENT_MAX_BYTES for the tools that take files, and for them only',
  async (t) => {
    const s = await sender(svc);
    const body = { padding: 'a'.repeat(svc.rt.config.maxBodyBytes + 10_000) };
    const sendRes = await svc.call(s.apiKey, 'send_email', body);
    t.equal(
      sendRes.body.error.code,
      'invalid_argument',
      'send_email reads the body (and refuses the unknown parameter)',
    );
    const other = await svc.call(s.apiKey, 'get_settings', body);
    t.equal(other.body.error.code, 'payload_too_large');
  },
);

t.test(
  'bodies over 2 KB live in the blob store: whole in every read, in the feed and in the sent MIME; the hash stays small',
  async (t) => {
    const s = await sender(svc);
    const text = `Bonjour,\n${'une longue ligne de compte rendu, '.repeat(200)}\nfin du texte.`;
    const html = `<p>${'un long paragraphe HTML, '.repeat(300)}</p>`;
    const res = await send(svc, s, { subject: 'Long', text, html, requires_approval: true });
    t.equal(res.status, 200, JSON.stringify(res.body));
    const id = res.body.message.id;
    t.equal(res.body.message.text, text);
    const stored = await svc.rt.redis.hmget(spaceKeys(s.spaceId).message(id), 'text', 'html', 'body_blobs');
    t.same(stored.slice(0, 2), [null, null], 'neither body in the hash');
    t.match(stored[2], /^text:[0-9a-f]{64} html:[0-9a-f]{64}$/);
    t.equal(await svc.rt.redis.call('OBJECT', 'ENCODING', spaceKeys(s.spaceId).message(id)), 'listpack');
    const read = await svc.call(s.apiKey, 'get_message', { message_id: id });
    t.equal(read.body.text, text);
    t.equal(read.body.html, html);
    t.equal((await svc.call(s.apiKey, 'get_thread', { thread_id: res.body.thread.id })).body.messages[0].text, text);
    t.equal((await svc.call(s.apiKey, 'list_drafts', { inbox_id: s.inboxId })).body.items[0].text, text);
    const feed = await svc.call(s.apiKey, 'event_feed', {});
    t.equal(
      feed.body.events.find((e: { data: { message_id: string } }) => e.data.message_id === id).data.text,
      text,
      'the event carries the whole text',
    );

    const shorter = `${text}\nPS : une correction.`;
    const updated = await svc.call(s.apiKey, 'update_draft', { message_id: id, text: shorter, html: '<p>court</p>' });
    t.equal(updated.body.text, shorter);
    t.match(
      await svc.rt.redis.hget(spaceKeys(s.spaceId).message(id), 'body_blobs'),
      /^text:[0-9a-f]{64}$/,
      'the short html back in the hash',
    );
    const approved = await svc.call(s.apiKey, 'approve_message', { message_id: id, revision: updated.body.revision });
    t.equal(approved.status, 200, JSON.stringify(approved.body));
    t.equal(approved.body.message.text, shorter);
    await deliverDue(svc.rt, transport, s.spaceId, s.inboxId);
    const got = await simpleParser((await peer.next()).raw);
    t.match(got.text, /PS : une correction\./, 'the sent text is the whole body');
  },
);
