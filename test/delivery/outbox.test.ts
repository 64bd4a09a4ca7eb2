/**
 * The outbox transport (the embedded default): one parseable .eml per message, written whole, replaced
 * on a second attempt; the body rules (the unsubscribe link in place of `{{unsubscribe_url}}`, else the
 * French footer while `footer`), the service's own mails, VERP both ways, and OUTBOUND at start.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { simpleParser } from 'mailparser';
import { loadConfig } from '../../src/config.js';
import { loadDkimKey, parseVerp, verpReturnPath } from '../../src/delivery/mime.js';
import { sendSystemMail } from '../../src/delivery/system-mail.js';
import { closeTransport, createTransport, transportFor } from '../../src/delivery/transports.js';
import { MASTER_KEY } from '../helpers/domains.js';
import { header, outgoing, withConfig } from '../helpers/mail.js';
import { mondayMorning, startService } from '../helpers/service.js';

const dataDir = mkdtempSync(join(tmpdir(), 'mbx-outbox-'));
t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
const svc = await startService({
  clock: mondayMorning(),
  env: { MAILBOX_MASTER_KEY: MASTER_KEY, MAILBOX_DATA_DIR: dataDir },
});
const outbox = createTransport(svc.rt);
const { spaceId } = await svc.space();
const domain = 'exemple-outbox.test';
const outboxDir = join(dataDir, 'outbox');
const fileOf = (id: string) => readFileSync(join(outboxDir, `${id}.eml`));

t.test('one .eml per message, parseable, with its envelope sender', async (t) => {
  t.equal(outbox.kind, 'outbox', 'the default');
  const mail = outgoing(
    svc.rt,
    { spaceId, domain },
    {
      html: '<html><body><p>Bonjour Marie,</p><p>Êtes-vous disponible jeudi ?</p></body></html>',
      replyTo: `reponses@${domain}`,
    },
  );
  t.match(await outbox.send(mail), { ok: true, response: `stored ${mail.id}.eml in the outbox` });
  const raw = fileOf(mail.id);
  t.equal(header(raw, 'return-path'), `<bounces+${spaceId}.${mail.id}@${domain}>`);
  const parsed = await simpleParser(raw);
  t.same(parsed.from?.value, [{ address: `ventes@${domain}`, name: 'Équipe Ventes' }]);
  t.equal(parsed.subject, 'Proposition de rendez-vous');
  t.equal(parsed.messageId, mail.messageIdHeader);
  t.equal(parsed.headers.get('x-mailbox-message-id'), mail.id);
  t.match(parsed.text, /Êtes-vous disponible jeudi \?/);
  t.match(parsed.html, /<p>Êtes-vous disponible jeudi \?<\/p>/);

  t.match(await outbox.send(mail), { ok: true }, 'a second attempt of the same message');
  t.same(
    readdirSync(outboxDir).filter((f) => f.startsWith(mail.id) || f.startsWith(`.${mail.id}`)),
    [`${mail.id}.eml`],
    'replaces its file, leaves no temporary one',
  );
});

t.test('a DKIM key that does not load or sign is our fault: refused, never sent unsigned', async (t) => {
  const refusal = { message: `DKIM key of mbx1._domainkey.${domain} does not load` };
  t.throws(
    () => loadDkimKey(domain, 'mbx1', '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n'),
    refusal,
    'a PEM that does not parse',
  );
  // An Ed25519 key parses, but nodemailer's RSA-SHA256 signer cannot use it: it would send the message unsigned.
  const dkim = { domainName: domain, keySelector: 'mbx1', privateKey: generateKeyPairSync('ed25519').privateKey };
  const mail = outgoing(svc.rt, { spaceId, domain }, { dkim });
  await t.rejects(outbox.send(mail), refusal, 'a key that does not sign');
  t.notOk(
    readdirSync(outboxDir).some((f) => f.includes(mail.id)),
    'nothing written',
  );
});

t.test('the footer: appended to both parts while the correspondent has not written', async (t) => {
  const mail = outgoing(svc.rt, { spaceId, domain }, { html: '<html><body><p>Bonjour</p></body></html>' });
  await outbox.send(mail);
  const parsed = await simpleParser(fileOf(mail.id));
  const url = mail.unsubscribe!.url;
  t.ok(
    parsed.text?.endsWith(
      `Êtes-vous disponible jeudi ?\n\n-- \nPour ne plus recevoir de messages de cet expéditeur : ${url}\n`,
    ),
    parsed.text ?? '',
  );
  t.match(
    parsed.html,
    `Pour ne plus recevoir de messages de cet expéditeur, <a href="${url}">désabonnez-vous</a>.</p>\n</body>`,
  );
});

t.test('{{unsubscribe_url}} places the link itself: no footer', async (t) => {
  const mail = outgoing(
    svc.rt,
    { spaceId, domain },
    {
      text: 'Bonjour,\nPour ne plus rien recevoir : {{unsubscribe_url}}\nÀ bientôt.',
      html: '<p>Bonjour</p><p><a href="{{ unsubscribe_url }}">Se désabonner</a></p>',
    },
  );
  await outbox.send(mail);
  const parsed = await simpleParser(fileOf(mail.id));
  const url = mail.unsubscribe!.url;
  t.equal(parsed.text, `Bonjour,\nPour ne plus rien recevoir : ${url}\nÀ bientôt.`);
  t.equal(parsed.html, `<p>Bonjour</p><p><a href="${url}">Se désabonner</a></p>`);
});

t.test('in a conversation (footer false): headers only, the body as written', async (t) => {
  const mail = outgoing(svc.rt, { spaceId, domain }, { footer: false });
  await outbox.send(mail);
  const raw = fileOf(mail.id);
  t.equal((await simpleParser(raw)).text, 'Bonjour Marie,\n\nÊtes-vous disponible jeudi ?\n');
  t.ok(header(raw, 'list-unsubscribe'));
  t.equal(header(raw, 'list-unsubscribe-post'), 'List-Unsubscribe=One-Click');
});

t.test('a file that cannot be written is a temporary failure', async (t) => {
  const blocked = join(dataDir, 'pas-un-dossier');
  await import('node:fs/promises').then((fs) => fs.writeFile(blocked, ''));
  const broken = createTransport(withConfig(svc.rt, { dataDir: blocked }));
  t.match(await broken.send(outgoing(svc.rt, { spaceId, domain })), {
    ok: false,
    permanent: false,
    code: 'outbox_failed',
  });
});

t.test("the service's own mail: from no-reply of the first service domain, no unsubscribe", async (t) => {
  t.teardown(() => closeTransport(svc.rt));
  t.equal(transportFor(svc.rt), transportFor(svc.rt), 'one transport per runtime');
  const before = new Set(readdirSync(outboxDir));
  const result = await sendSystemMail(svc.rt, {
    to: 'humain@exemple.fr',
    subject: 'Votre code : 123456',
    text: 'Votre code est 123456.',
  });
  t.match(result, { ok: true });
  const [file] = readdirSync(outboxDir).filter((f) => !before.has(f));
  const raw = readFileSync(join(outboxDir, file!));
  const parsed = await simpleParser(raw);
  t.same(parsed.from?.value, [{ address: 'no-reply@mailbox.localhost', name: 'Mailbox' }]);
  t.equal(parsed.subject, 'Votre code : 123456');
  t.equal(parsed.text, 'Votre code est 123456.\n', 'a single part ends with a line break');
  t.equal(header(raw, 'list-unsubscribe'), undefined);
  t.equal(header(raw, 'return-path'), '<bounces@mailbox.localhost>');
  t.match(parsed.messageId, /^<msg_[0-9a-z]{20}@mailbox\.localhost>$/);
});

t.test('VERP return path, both ways', async (t) => {
  const messageId = svc.rt.ids.next('message');
  const address = verpReturnPath(spaceId, messageId, 'exemple.fr');
  t.equal(address, `bounces+${spaceId}.${messageId}@exemple.fr`);
  t.ok(address.split('@')[0]!.length <= 64, 'a local part RFC 5321 accepts');
  t.same(parseVerp(address), { spaceId, messageId });
  t.same(parseVerp(address.toUpperCase()), { spaceId, messageId }, 'a server folding case changes nothing');
  t.equal(parseVerp('bounces@exemple.fr'), null);
  t.equal(parseVerp(`bounces+${messageId}.${spaceId}@exemple.fr`), null);
  t.equal(parseVerp(`contact+${spaceId}.${messageId}@exemple.fr`), null);
});

t.test('OUTBOUND is checked at start, without echoing a password', async (t) => {
  t.same(loadConfig({}).outbound, { kind: 'outbox' });
  t.same(loadConfig({ OUTBOUND: 'direct' }).outbound, { kind: 'direct' });
  t.same(loadConfig({ OUTBOUND: 'smtps://u:p@relais.test:465' }).outbound, {
    kind: 'smtp',
    url: 'smtps://u:p@relais.test:465',
  });
  t.equal(loadConfig({}).directPort, 25);
  t.equal(loadConfig({ MX_HOST: 'MX.Exemple.fr' }).heloName, 'mx.exemple.fr', 'EHLO name defaults to MX_HOST');
  t.equal(loadConfig({ HELO_NAME: 'out.exemple.fr' }).heloName, 'out.exemple.fr');
  for (const bad of ['smtp://', 'ftp://u:secret@h', 'postfix']) {
    t.throws(() => loadConfig({ OUTBOUND: bad }), { message: /^OUTBOUND doit être/ });
  }
  try {
    loadConfig({ OUTBOUND: 'smtpx://u:secret@h' });
  } catch (error) {
    t.notMatch((error as Error).message, 'secret');
  }
});
