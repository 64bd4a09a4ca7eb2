/**
 * SMTP submission over real sockets: nodemailer authenticates with an API key on loopback, the message
 * is queued as send_email writes it (attachments included), then delivered DKIM-signed to a peer MTA;
 * refusals answer their SMTP code with the error code (a wrong key 535, a suppressed recipient 5xx,
 * another space's inbox as MAIL FROM 5xx, a spent rate budget 4xx); In-Reply-To of a thread replies in
 * it; STARTTLS with a certificate made for the test.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer/index.js';
import t from 'tap';
import { ManualClock } from '../../src/clock.js';
import { createTransport } from '../../src/delivery/transports.js';
import { startSubmission } from '../../src/smtp/submission.js';
import { deliverDue } from '../../src/workers/send.js';
import type { Runtime } from '../../src/runtime.js';
import { MASTER_KEY } from '../helpers/domains.js';
import { startInbound } from '../helpers/inbound.js';
import { verifyDkim, withConfig } from '../helpers/mail.js';
import { recipient, sender } from '../helpers/outbound.js';
import { startService } from '../helpers/service.js';
import { startPeer } from '../helpers/smtp-peer.js';

const peer = await startPeer({ starttls: false });
const clock = new ManualClock(Date.now());
const env = {
  MAILBOX_MASTER_KEY: MASTER_KEY,
  SEND_WINDOW: 'always',
  SPACING_SECONDS: '0',
  OUTBOUND: `smtp://127.0.0.1:${peer.port}`,
};
const svc = await startService({ clock, env });
const inbound = await startInbound(svc);
const transport = createTransport(svc.rt);
t.teardown(() => transport.close());

/** The submission front end of `rt` on a free loopback port. */
async function submissionOf(rt: Runtime) {
  const server = await startSubmission(rt, { port: 0, host: '127.0.0.1' });
  t.teardown(() => server.close());
  return server;
}
const submission = await submissionOf(svc.rt);

/** A nodemailer client of the submission port presenting `key`; one pooled session when `pooled`. */
function client(key: string, options: { port?: number; pooled?: boolean; tls?: boolean } = {}) {
  const made = nodemailer.createTransport({
    host: '127.0.0.1',
    port: options.port ?? submission.port,
    secure: false,
    auth: { user: 'agent', pass: key },
    ...(options.tls ? { requireTLS: true, tls: { rejectUnauthorized: false } } : { ignoreTLS: true }),
    ...(options.pooled ? { pool: true, maxConnections: 1 } : {}),
  });
  t.teardown(() => made.close());
  return made;
}

/** The SMTP refusal a send ends with: its code and reply line. */
async function refusal(sending: Promise<unknown>): Promise<{ code: number; response: string }> {
  try {
    await sending;
  } catch (error) {
    const { responseCode, response } = error as { responseCode: number; response: string };
    return { code: responseCode, response };
  }
  throw new Error('the message was accepted');
}

const messageIdOf = (response: string): string => /^250 2\.0\.0 (msg_\w+) /.exec(response)![1]!;
const csv = Buffer.from('réf;montant\nA-1;120,50\n', 'utf8');

t.test(
  'nodemailer with a key: queued as send_email writes it, with its file, then delivered DKIM-signed',
  async (t) => {
    const s = await sender(svc);
    const to = recipient('marie');
    const mail: Mail.Options = {
      from: s.address,
      to: `Marie Curie <${to}>`,
      subject: 'Proposition',
      text: 'Bonjour Marie,\nvoici les lignes.',
      html: '<p>Bonjour Marie,</p><p>voici les lignes.</p>',
      attachments: [{ filename: 'lignes.csv', content: csv, contentType: 'text/csv' }],
    };
    const info = await client(s.apiKey).sendMail(mail);
    t.match(info.response, /^250 2\.0\.0 msg_\w+ queued$/);
    const id = messageIdOf(info.response);

    const read = await svc.call(s.apiKey, 'get_message', { message_id: id });
    t.equal(read.status, 200, JSON.stringify(read.body));
    t.match(read.body, {
      status: 'queued',
      inbox_id: s.inboxId,
      to,
      to_name: 'Marie Curie',
      subject: 'Proposition',
      has_html: true,
      written_by: { name: 'admin' },
    });
    t.match(read.body.attachments, [{ filename: 'lignes.csv', content_type: 'text/csv', size: csv.length }]);
    t.match((await svc.call(s.apiKey, 'get_thread', { thread_id: read.body.thread_id })).body.thread, {
      contact: to,
      contact_name: 'Marie Curie',
    });
    const journal = await svc.call(s.apiKey, 'list_events', { message_id: id });
    t.match(
      journal.body.events,
      [{ actor: { kind: 'agent', name: 'admin', you: true } }],
      'journaled as the key that authenticated',
    );

    await deliverDue(svc.rt, transport, s.spaceId, s.inboxId);
    const got = await peer.next();
    t.same(got.to, [to]);
    const parsed = await simpleParser(got.raw);
    t.equal(parsed.subject, 'Proposition');
    t.same(parsed.from?.value, [{ address: s.address, name: 'Équipe ventes' }], 'the From of the inbox');
    t.same(
      parsed.attachments.map((a) => [a.filename, a.contentType, a.content]),
      [['lignes.csv', 'text/csv', csv]],
    );
    const [signature] = await verifyDkim(svc.dns, got.raw);
    t.equal(signature?.status.result, 'pass', signature?.info ?? 'no signature');
    t.equal(signature?.signingDomain, s.domain);
  },
);

t.test(
  'copies: Cc as cc, the envelope addresses no header names as bcc; the peer gets every one, no Bcc header',
  async (t) => {
    const s = await sender(svc);
    const [to, copy, hidden] = [recipient('marie'), recipient('paul'), recipient('cache')];
    const info = await client(s.apiKey).sendMail({
      from: s.address,
      to,
      cc: `"Durand, Paul" <${copy}>`,
      bcc: hidden,
      subject: 'Copies',
      text: 'Bonjour à tous.',
    });
    const read = await svc.call(s.apiKey, 'get_message', { message_id: messageIdOf(info.response) });
    t.match(read.body, { to, cc: [{ address: copy, name: 'Durand, Paul' }], bcc: [{ address: hidden, name: null }] });
    await deliverDue(svc.rt, transport, s.spaceId, s.inboxId);
    const got = await peer.next();
    t.same([...got.to].sort(), [to, copy, hidden].sort());
    const parsed = await simpleParser(got.raw);
    t.same(parsed.cc && !Array.isArray(parsed.cc) ? parsed.cc.value.map((c) => c.address) : null, [copy]);
    t.notOk(got.raw.toString().includes(hidden), 'the hidden copy nowhere in the bytes');
  },
);

t.test('the same Message-ID sent again writes nothing new', async (t) => {
  const s = await sender(svc);
  const mail = {
    from: s.address,
    to: recipient(),
    subject: 'Une fois',
    text: 'Bonjour.',
    messageId: `<une-fois-${Date.now()}@client.test>`,
  };
  const first = messageIdOf((await client(s.apiKey).sendMail(mail)).response);
  const again = messageIdOf((await client(s.apiKey).sendMail(mail)).response);
  t.equal(again, first, 'the message already written');
});

t.test('a wrong key answers 535 5.7.8; MAIL FROM without AUTH is refused', async (t) => {
  const s = await sender(svc);
  const wrong = await refusal(
    client(`${s.apiKey.slice(0, -4)}AAAA`).sendMail({ from: s.address, to: recipient(), subject: 'x', text: 'x' }),
  );
  t.equal(wrong.code, 535);
  t.match(wrong.response, /^535 5\.7\.8 unauthorized: Acces refuse : cle d'API absente/);
  const anonymous = nodemailer.createTransport({
    host: '127.0.0.1',
    port: submission.port,
    secure: false,
    ignoreTLS: true,
  });
  t.teardown(() => anonymous.close());
  t.equal((await refusal(anonymous.sendMail({ from: s.address, to: recipient(), subject: 'x', text: 'x' }))).code, 530);
});

t.test('refusals of the tools answer 5xx with their code and French message', async (t) => {
  const s = await sender(svc);
  const blocked = recipient('bloque');
  t.equal((await svc.call(s.apiKey, 'add_suppression', { value: blocked })).status, 200);
  const suppressed = await refusal(
    client(s.apiKey).sendMail({ from: s.address, to: blocked, subject: 'Bonjour', text: 'Bonjour.' }),
  );
  t.equal(suppressed.code, 550);
  t.match(
    suppressed.response,
    /^550 5\.7\.1 recipient_suppressed: Destinataire bloque \(blocage manuel\)\. N'ecrivez pas a cette adresse\.$/,
  );

  const suppressedCopy = await refusal(
    client(s.apiKey).sendMail({ from: s.address, to: recipient(), cc: blocked, subject: 'Bonjour', text: 'Bonjour.' }),
  );
  t.match(suppressedCopy.response, /^550 5\.7\.1 recipient_suppressed: /, 'a copy is judged as to is');
  const eleven = Array.from({ length: 11 }, () => recipient('copie'));
  t.match(
    (
      await refusal(
        client(s.apiKey).sendMail({ from: s.address, to: recipient(), cc: eleven, subject: 'x', text: 'x' }),
      )
    ).response,
    /^554 5\.6\.0 invalid_argument: .*cc/,
  );
  const noSubject = await refusal(client(s.apiKey).sendMail({ from: s.address, to: recipient(), text: 'Bonjour.' }));
  t.match(noSubject.response, /^554 5\.6\.0 invalid_argument: Parametre invalide "subject"/);
  const script = await refusal(
    client(s.apiKey).sendMail({
      from: s.address,
      to: recipient(),
      subject: 'x',
      text: 'x',
      attachments: [{ filename: 'outil.exe', content: csv }],
    }),
  );
  t.match(script.response, /^550 5\.7\.1 attachment_refused: .*outil\.exe/);
});

t.test("MAIL FROM another space's inbox, or one outside the key's inboxes, is refused 550 not_found", async (t) => {
  const s = await sender(svc);
  const other = await sender(svc);
  const foreign = await refusal(
    client(s.apiKey).sendMail({ from: other.address, to: recipient(), subject: 'x', text: 'x' }),
  );
  t.equal(foreign.code, 550);
  t.match(foreign.response, new RegExp(`^550 5\\.7\\.1 not_found: .*"${other.address}" \\(MAIL FROM\\)`));
  const unknown = await refusal(
    client(s.apiKey).sendMail({ from: `personne@${s.domain}`, to: recipient(), subject: 'x', text: 'x' }),
  );
  t.match(unknown.response, /^550 5\.7\.1 not_found/);

  const second = await svc.call(s.apiKey, 'create_inbox', {
    username: 'compta',
    domain: s.domain,
    display_name: 'Compta',
  });
  t.equal(second.status, 200, JSON.stringify(second.body));
  const narrow = await svc.key(s.apiKey, { name: 'etroite', permissions: ['send'], inbox_ids: [second.body.id] });
  const outside = await refusal(
    client(narrow.apiKey).sendMail({ from: s.address, to: recipient(), subject: 'x', text: 'x' }),
  );
  t.match(outside.response, /^550 5\.7\.1 not_found/);
  const inside = await client(narrow.apiKey).sendMail({
    from: second.body.address,
    to: recipient(),
    subject: 'Bonjour',
    text: 'Bonjour.',
  });
  t.match(inside.response, /^250 /);
});

t.test('a key whose request budget is spent gets 451 4.7.1, and may retry', async (t) => {
  const tight = await startService({ clock, env: { ...env, RATE_LIMIT_BURST: '2', RATE_LIMIT_PER_SECOND: '1' } });
  const tightSubmission = await submissionOf(tight.rt);
  const s = await sender(svc);
  const key = await svc.key(s.apiKey, { name: 'smtp', permissions: ['send'] });
  const pooled = client(key.apiKey, { port: tightSubmission.port, pooled: true });
  t.match(
    (await pooled.sendMail({ from: s.address, to: recipient(), subject: 'Un', text: 'Un.' })).response,
    /^250 /,
    'AUTH and one message: the burst of two',
  );
  const spent = await refusal(pooled.sendMail({ from: s.address, to: recipient(), subject: 'Deux', text: 'Deux.' }));
  t.equal(spent.code, 451);
  t.match(spent.response, /^451 4\.7\.1 rate_limited: Trop de requetes pour cette cle\. Reessayez dans 1 s\./);
  clock.advance(5_000);
  t.match(
    (
      await client(key.apiKey, { port: tightSubmission.port }).sendMail({
        from: s.address,
        to: recipient(),
        subject: 'Deux',
        text: 'Deux.',
      })
    ).response,
    /^250 /,
    'refilled',
  );
});

t.test('In-Reply-To of a message of a thread of the inbox: a reply in that thread', async (t) => {
  const s = await sender(svc);
  const paul = recipient('paul');
  await inbound.send({
    from: paul,
    to: s.address,
    subject: 'Question',
    text: 'Bonjour, une question ?',
    messageId: '<question-1@destinataire.test>',
  });
  const threads = await svc.call(s.apiKey, 'list_threads', { inbox_id: s.inboxId });
  const thread = threads.body.items.find((th: { contact: string }) => th.contact === paul);

  const reply = await client(s.apiKey).sendMail({
    from: s.address,
    to: paul,
    subject: 'Re: Question',
    text: 'Voici la réponse.',
    inReplyTo: '<question-1@destinataire.test>',
  });
  const id = messageIdOf(reply.response);
  const read = await svc.call(s.apiKey, 'get_message', { message_id: id });
  t.match(read.body, { thread_id: thread.id, to: paul, subject: 'Re: Question' });
  t.equal((await svc.call(s.apiKey, 'get_thread', { thread_id: thread.id })).body.messages.length, 2);

  // Our own message cited: the follow-up joins its thread too.
  const follow = await client(s.apiKey).sendMail({
    from: s.address,
    to: paul,
    subject: 'Suite',
    text: 'Et encore ceci.',
    inReplyTo: `<${id}@${s.domain}>`,
  });
  t.match((await svc.call(s.apiKey, 'get_message', { message_id: messageIdOf(follow.response) })).body, {
    thread_id: thread.id,
  });

  // Cited, but written to someone else: a new message in a new thread, to whom the program said.
  const other = recipient('autre');
  const elsewhere = await client(s.apiKey).sendMail({
    from: s.address,
    to: other,
    subject: 'Transfert',
    text: 'Pour information.',
    inReplyTo: '<question-1@destinataire.test>',
  });
  const moved = await svc.call(s.apiKey, 'get_message', { message_id: messageIdOf(elsewhere.response) });
  t.match(moved.body, { to: other, subject: 'Transfert' });
  t.not(moved.body.thread_id, thread.id);
});

t.test('STARTTLS with the SMTP_TLS certificate', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'mbx-submission-tls-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
    ],
    { stdio: 'ignore' },
  );
  const secured = await submissionOf(withConfig(svc.rt, { smtpTls: { keyFile, certFile } }));
  const s = await sender(svc);
  const info = await client(s.apiKey, { port: secured.port, tls: true }).sendMail({
    from: s.address,
    to: recipient(),
    subject: 'Chiffré',
    text: 'Bonjour.',
  });
  t.match(info.response, /^250 2\.0\.0 msg_/);
});
