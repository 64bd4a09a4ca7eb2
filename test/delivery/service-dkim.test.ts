/**
 * SERVICE_DKIM_KEY_FILE: mail from a common-domain inbox and the service's own mail are signed with the
 * operator's key; `mailbox admin service-dkim-records` prints the records to publish, and mailauth
 * verifies the signatures against them on the test DNS server. A bad key stops the start.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { runCli } from '../../src/cli/main.js';
import { loadConfig } from '../../src/config.js';
import { sendSystemMail } from '../../src/delivery/system-mail.js';
import { createTransport } from '../../src/delivery/transports.js';
import { deliverDue } from '../../src/workers/send.js';
import { MASTER_KEY } from '../helpers/domains.js';
import { signedHeaders, verifyDkim } from '../helpers/mail.js';
import { recipient } from '../helpers/outbound.js';
import { mondayMorning, startService } from '../helpers/service.js';

const dir = mkdtempSync(join(tmpdir(), 'mbx-service-dkim-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const keyFile = join(dir, 'dkim.pem');
writeFileSync(
  keyFile,
  generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }),
);
const env = {
  MAILBOX_MASTER_KEY: MASTER_KEY,
  MAILBOX_DATA_DIR: dir,
  SERVICE_DKIM_KEY_FILE: keyFile,
  SERVICE_DKIM_SELECTOR: 'mbxsvc',
  SEND_WINDOW: 'always',
  SPACING_SECONDS: '0',
};
const svc = await startService({ clock: mondayMorning(), env });
const outbox = createTransport(svc.rt);
const common = svc.rt.config.commonDomain;
const service = svc.rt.config.serviceDomains[0]!;
const eml = (id: string) => readFileSync(join(dir, 'outbox', `${id}.eml`));

t.test('service-dkim-records: one TXT record per signed domain, published here', async (t) => {
  const out: string[] = [];
  const err: string[] = [];
  t.equal(
    await runCli(['admin', 'service-dkim-records'], {
      env: { ...env, LOG_LEVEL: 'error' },
      out: (l) => out.push(l),
      err: (l) => err.push(l),
    }),
    0,
    err.join('\n'),
  );
  const records = out.map((line) => JSON.parse(line) as { name: string; type: string; value: string });
  t.same(records.map((r) => r.name).sort(), [`mbxsvc._domainkey.${common}`, `mbxsvc._domainkey.${service}`].sort());
  for (const record of records) {
    t.match(record.value, /^v=DKIM1; k=rsa; p=[A-Za-z0-9+/]+=*$/);
    svc.dns.txt(record.name, record.value);
  }
  t.equal(
    await runCli(['admin', 'service-dkim-records'], { env: { LOG_LEVEL: 'error' }, out: () => {}, err: () => {} }),
    2,
    'nothing to print without a key',
  );
});

t.test("a common-domain inbox's mail leaves signed by the common domain", async (t) => {
  const { apiKey, spaceId } = await svc.space({ plan: 'pro' });
  const inbox = await svc.call(apiKey, 'create_inbox', {
    username: `accueil-${Date.now().toString(36)}`,
    domain: common,
    display_name: 'Accueil',
  });
  t.equal(inbox.status, 200, JSON.stringify(inbox.body));
  const sent = await svc.call(apiKey, 'send_email', {
    inbox_id: inbox.body.id,
    to: 'humain@exemple.fr',
    subject: 'Essai',
    text: 'Bonjour',
    test: true,
  });
  t.equal(sent.status, 200, JSON.stringify(sent.body));
  await deliverDue(svc.rt, outbox, spaceId, inbox.body.id);
  const raw = eml(sent.body.message.id);
  const [signature, ...others] = await verifyDkim(svc.dns, raw);
  t.equal(others.length, 0);
  t.equal(signature?.status.result, 'pass', signature?.info ?? 'no signature');
  t.equal(signature?.signingDomain, common);
  t.equal(signature?.selector, 'mbxsvc');
  t.ok(signedHeaders(raw).includes('list-unsubscribe'));
});

t.test("the service's own mail is signed by the service domain", async (t) => {
  const to = recipient();
  t.match(await sendSystemMail(svc.rt, { to, subject: 'Votre code', text: 'Votre code : 123456' }), { ok: true });
  const file = readdirSync(join(dir, 'outbox'))
    .map((name) => join(dir, 'outbox', name))
    .find((path) => readFileSync(path, 'utf8').includes(to));
  const [signature] = await verifyDkim(svc.dns, readFileSync(file!));
  t.equal(signature?.status.result, 'pass', signature?.info ?? 'no signature');
  t.equal(signature?.signingDomain, service);
});

t.test('a key file that is missing or no RSA private key stops the start', async (t) => {
  const ed = join(dir, 'ed.pem');
  writeFileSync(ed, generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }));
  t.throws(() => loadConfig({ SERVICE_DKIM_KEY_FILE: ed }), /clé privée RSA/);
  const garbage = join(dir, 'garbage.pem');
  writeFileSync(garbage, 'bonjour');
  t.throws(() => loadConfig({ SERVICE_DKIM_KEY_FILE: garbage }));
  t.throws(() => loadConfig({ SERVICE_DKIM_KEY_FILE: join(dir, 'absent.pem') }), /ENOENT/);
  t.throws(
    () => loadConfig({ SERVICE_DKIM_KEY_FILE: keyFile, SERVICE_DKIM_SELECTOR: 'deux.labels' }),
    /un seul label DNS/,
  );
});
