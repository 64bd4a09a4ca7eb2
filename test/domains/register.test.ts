/** add_domain, list_domains, remove_domain: records to publish, sealed DKIM keys, every refusal. */
import { createPublicKey, createPrivateKey } from 'node:crypto';
import t from 'tap';
import { dkimContext } from '../../actors/domain.js';
import { open } from '../../src/crypto.js';
import { loadConfig } from '../../src/config.js';
import { globalKeys, spaceKeys } from '../../src/redis/keys.js';
import { domainQueue, recheckSchedulerId } from '../../src/redis/queues.js';
import { addDomain, MASTER_KEY, uniqueDomain, verifiedDomain } from '../helpers/domains.js';
import { mondayMorning, startService } from '../helpers/service.js';

const clock = mondayMorning();
const svc = await startService({
  clock,
  env: { MAILBOX_MASTER_KEY: MASTER_KEY, MX_HOST: 'mx.service.test', SPF_HOST: '_spf.service.test' },
});

t.test('add_domain: a pending domain and the exact records to publish', async (t) => {
  const { apiKey, spaceId } = await svc.space();
  const domain = uniqueDomain('envoi');
  const res = await svc.call(apiKey, 'add_domain', { domain: `  ${domain.toUpperCase()}. ` });
  t.equal(res.status, 200, JSON.stringify(res.body));
  const body = res.body;
  // The domain object, and the answer's notice (docs/tools.md, "What the model reads"): the next step.
  t.same(Object.keys(body).sort(), [
    'domain',
    'id',
    'last_checked_at',
    'notice',
    'records',
    'status',
    'status_reason',
    'verified_at',
  ]);
  t.equal(
    body.notice,
    `Publiez les enregistrements requis dans le DNS de ${domain}, puis appelez verify_domain (un changement DNS peut mettre quelques minutes à se voir).`,
  );
  t.match(body.id, /^dom_[0-9a-z]{20}$/);
  t.equal(body.domain, domain, 'lowercase, without the trailing dot');
  t.equal(body.status, 'pending');
  t.equal(body.status_reason, null);
  t.equal(body.verified_at, null);
  t.equal(body.last_checked_at, null);
  t.same(
    body.records.map((r: Record<string, unknown>) => [r.role, r.type, r.name, r.required]),
    [
      ['ownership', 'TXT', `_mailbox.${domain}`, true],
      ['dkim', 'TXT', `mbx1._domainkey.${domain}`, true],
      ['dkim', 'TXT', `mbx2._domainkey.${domain}`, true],
      ['spf', 'TXT', domain, true],
      ['mx', 'MX', domain, true],
      ['dmarc', 'TXT', `_dmarc.${domain}`, false],
    ],
  );
  for (const record of body.records) {
    t.same(Object.keys(record).sort(), ['label', 'name', 'note', 'required', 'role', 'seen', 'state', 'type', 'value']);
    t.equal(record.state, 'absent', `${record.label}: not seen yet`);
    t.equal(record.seen, null);
    t.ok(record.note.length > 20, 'a French note says what the record is for');
  }
  const [ownership, dkim1, dkim2, spf, mx, dmarc] = body.records;
  t.match(ownership.value, /^mailbox-verification=[0-9A-Za-z]{32}$/);
  t.equal(spf.value, 'v=spf1 include:_spf.service.test ~all');
  t.equal(mx.value, 'mx.service.test');
  t.equal(dmarc.value, 'v=DMARC1; p=none');
  const stored = await svc.rt.redis.hgetall(spaceKeys(spaceId).domain(domain));
  for (const [i, record] of [dkim1, dkim2].entries()) {
    t.match(record.value, /^v=DKIM1; k=rsa; p=[A-Za-z0-9+/=]+$/);
    const key = createPublicKey({
      key: Buffer.from(record.value.split('p=')[1], 'base64'),
      format: 'der',
      type: 'spki',
    });
    t.equal(key.asymmetricKeyDetails?.modulusLength, 2048, 'RSA-2048');
    const sealed = JSON.parse(stored.dkim_private!)[i];
    t.notMatch(sealed, /PRIVATE KEY/, 'the private key is not stored in clear');
    const pem = open(MASTER_KEY_BUFFER, sealed, dkimContext(body.id, ['mbx1', 'mbx2'][i]!));
    const derived = createPublicKey(createPrivateKey(pem)).export({ type: 'spki', format: 'der' }).toString('base64');
    t.equal(
      `v=DKIM1; k=rsa; p=${derived}`,
      record.value,
      'it opens under the master key and matches the published key',
    );
    t.throws(() => open(MASTER_KEY_BUFFER, sealed, dkimContext(body.id, 'autre')), 'bound to its domain and selector');
  }
  t.not(dkim1.value, dkim2.value, 'two different keys');

  const journal = await svc.call(apiKey, 'list_events', { domain });
  t.equal(journal.body.events[0].text, `Ajout du domaine « ${domain} »`);
  const listed = await svc.call(apiKey, 'list_domains', {});
  const { notice, ...record } = body;
  t.same(listed.body, {
    domains: [record],
    notice:
      'Un domaine en attente ou suspendu attend ses enregistrements DNS : publiez-les, puis appelez verify_domain.',
  });
  t.ok(notice);
});

const MASTER_KEY_BUFFER = Buffer.from(MASTER_KEY, 'base64');

t.test('add_domain: names are checked; internationalised names become punycode', async (t) => {
  const { apiKey } = await svc.space();
  for (const domain of [
    'localhost',
    'exa mple.fr',
    '-exemple.fr',
    'exemple-.fr',
    'exemple.123',
    'a..b.fr',
    `${'a'.repeat(64)}.fr`,
    `${'abcdefghi.'.repeat(26)}fr`,
    '',
  ]) {
    const res = await svc.call(apiKey, 'add_domain', { domain });
    t.equal(res.status, 400, `${JSON.stringify(domain)} refused`);
    t.same(res.body.error.hint, { parameter: 'domain' });
  }
  const label = uniqueDomain('café').split('.')[0]!;
  const res = await svc.call(apiKey, 'add_domain', { domain: `${label}.fr` });
  t.equal(res.status, 200, JSON.stringify(res.body));
  t.match(res.body.domain, /^xn--.+\.fr$/);
});

t.test('public_mail_domain: webmail and ISP domains, their subdomains, any country suffix', async (t) => {
  const { apiKey } = await svc.space();
  for (const domain of [
    'gmail.com',
    'hotmail.fr',
    'hotmail.co.uk',
    'yahoo.com',
    'outlook.com',
    'mail.gmail.com',
    'orange.fr',
    'gmx.de',
    'proton.me',
    'qq.com',
  ]) {
    const res = await svc.call(apiKey, 'add_domain', { domain });
    t.equal(res.status, 422, domain);
    t.equal(res.body.error.code, 'public_mail_domain');
  }
  const lookalike = await svc.call(apiKey, 'add_domain', { domain: `live.${uniqueDomain('acme')}` });
  t.equal(lookalike.status, 200, "a company's subdomain named like a provider is allowed");
});

t.test("domain_not_allowed: the service's own domains", async (t) => {
  const { apiKey } = await svc.space();
  const common = svc.rt.config.commonDomain;
  for (const domain of [common, `envoi.${common}`, 'mailbox.localhost', 'a.mailbox.localhost']) {
    const res = await svc.call(apiKey, 'add_domain', { domain });
    t.equal(res.status, 422, domain);
    t.equal(res.body.error.code, 'domain_not_allowed');
    t.match(res.body.error.message, /domaine du service/);
  }
});

t.test('payment_required, encryption_unavailable, space_unverified, forbidden', async (t) => {
  const free = await svc.space({ plan: 'none' });
  const unpaid = await svc.call(free.apiKey, 'add_domain', { domain: uniqueDomain() });
  t.equal(unpaid.status, 402);
  t.equal(unpaid.body.error.code, 'payment_required');
  t.match(unpaid.body.error.message, /l'ajout d'un domaine/);

  const keyless = await startService({ env: { MAILBOX_MASTER_KEY: '' } });
  const { apiKey } = await keyless.space();
  const res = await keyless.call(apiKey, 'add_domain', { domain: uniqueDomain() });
  t.equal(res.status, 503);
  t.equal(res.body.error.code, 'encryption_unavailable');
  t.ok(res.headers.get('retry-after'));
  t.same((await keyless.call(apiKey, 'list_domains', {})).body.domains, [], 'nothing was written');

  const unverified = await svc.space({ verified: false });
  t.equal(
    (await svc.call(unverified.apiKey, 'add_domain', { domain: uniqueDomain() })).body.error.code,
    'space_unverified',
  );
  const admin = await svc.space();
  const reader = await svc.key(admin.apiKey, { name: 'lecteur', permissions: ['read', 'send'] });
  t.equal((await svc.call(reader.apiKey, 'add_domain', { domain: uniqueDomain() })).body.error.code, 'forbidden');
  t.equal((await svc.call(reader.apiKey, 'list_domains', {})).status, 200, 'list_domains needs read only');
});

t.test('domain_exists, domain_limit (five per space)', async (t) => {
  const { apiKey } = await svc.space();
  const first = await addDomain(svc, apiKey);
  const again = await svc.call(apiKey, 'add_domain', { domain: first.domain });
  t.equal(again.status, 409);
  t.equal(again.body.error.code, 'domain_exists');
  for (let i = 0; i < 4; i++) await addDomain(svc, apiKey);
  const sixth = await svc.call(apiKey, 'add_domain', { domain: uniqueDomain() });
  t.equal(sixth.status, 409);
  t.equal(sixth.body.error.code, 'domain_limit');
  const listed = (await svc.call(apiKey, 'list_domains', {})).body.domains;
  t.equal(listed.length, 5);
  t.equal(listed[0].id, first.id, 'in registration order');

  const other = await svc.space();
  t.equal(
    (await svc.call(other.apiKey, 'add_domain', { domain: first.domain })).status,
    200,
    'registering does not reserve',
  );
});

t.test('domain_taken: another space already proved ownership', async (t) => {
  const owner = await svc.space();
  const proved = await verifiedDomain(svc, owner.apiKey);
  const late = await svc.space();
  const res = await svc.call(late.apiKey, 'add_domain', { domain: proved.domain });
  t.equal(res.status, 409);
  t.equal(res.body.error.code, 'domain_taken');
  t.equal(
    (await svc.call(late.apiKey, 'add_domain', { domain: `envoi.${proved.domain}` })).status,
    200,
    'a subdomain is another domain',
  );
});

t.test('remove_domain: confirm, not_found, domain_in_use, claim released, new keys when added again', async (t) => {
  const { apiKey, spaceId } = await svc.space();
  const domain = await verifiedDomain(svc, apiKey);
  const unconfirmed = await svc.call(apiKey, 'remove_domain', { domain: domain.domain, confirm: false });
  t.equal(unconfirmed.status, 400);
  t.same(unconfirmed.body.error.hint, { parameter: 'confirm' });
  const unknown = await svc.call(apiKey, 'remove_domain', { domain: uniqueDomain(), confirm: true });
  t.equal(unknown.status, 404);
  t.equal(unknown.body.error.code, 'not_found');
  const other = await svc.space();
  t.equal(
    (await svc.call(other.apiKey, 'remove_domain', { domain: domain.domain, confirm: true })).body.error.code,
    'not_found',
  );

  const box = await svc.call(apiKey, 'create_inbox', {
    username: 'contact',
    domain: domain.domain,
    display_name: 'Contact',
  });
  t.equal(box.status, 200);
  const busy = await svc.call(apiKey, 'remove_domain', { domain: domain.domain, confirm: true });
  t.equal(busy.status, 409);
  t.equal(busy.body.error.code, 'domain_in_use');
  await svc.call(apiKey, 'delete_inbox', { inbox_id: box.body.id, confirm: true });

  t.ok(
    await domainQueue(svc.rt).getJobScheduler(recheckSchedulerId(spaceId, domain.id)),
    'a verified domain has its recheck',
  );
  const res = await svc.call(apiKey, 'remove_domain', { domain: domain.domain.toUpperCase(), confirm: true });
  t.equal(res.status, 200, JSON.stringify(res.body));
  t.same(res.body, {
    remote_domain_removed: true,
    removed: domain.domain,
    notice:
      'Pour le réutiliser, enregistrez-le à nouveau avec add_domain : de nouveaux enregistrements DNS seront à publier.',
  });
  t.equal(await svc.rt.redis.get(globalKeys.domain(domain.domain)), null, 'the mail server no longer receives for it');
  t.notOk(await domainQueue(svc.rt).getJobScheduler(recheckSchedulerId(spaceId, domain.id)), 'its recheck is gone');
  t.same((await svc.call(apiKey, 'list_domains', {})).body.domains, []);
  const journal = await svc.call(apiKey, 'list_events', { domain: domain.domain });
  t.equal(journal.body.events[0].text, `Retrait du domaine « ${domain.domain} »`);

  const again = await addDomain(svc, apiKey, domain.domain);
  t.not(again.id, domain.id);
  for (const i of [0, 1, 2])
    t.not(again.records[i]!.value, domain.records[i]!.value, `new ${domain.records[i]!.label}`);
  t.equal(
    (await svc.call(other.apiKey, 'add_domain', { domain: domain.domain })).status,
    200,
    'nobody holds it any more',
  );

  const pending = await addDomain(svc, apiKey);
  const never = await svc.call(apiKey, 'remove_domain', { domain: pending.domain, confirm: true });
  t.same(
    never.body,
    {
      remote_domain_removed: false,
      removed: pending.domain,
      notice:
        'Pour le réutiliser, enregistrez-le à nouveau avec add_domain : de nouveaux enregistrements DNS seront à publier.',
    },
    'never proved: it never reached the mail server',
  );
});

t.test('configuration: DNS_SERVERS, SPF_HOST and MX_HOST defaults, COMMON_DOMAIN disabled', async (t) => {
  const defaults = loadConfig({});
  t.equal(defaults.dnsServers, null, 'the system resolvers');
  t.equal(defaults.mxHost, 'mx.agents.mailbox.localhost');
  t.equal(defaults.spfHost, '_spf.mailbox.localhost');
  t.same(loadConfig({ DNS_SERVERS: '127.0.0.1:5353, [::1]:53 ,10.0.0.1' }).dnsServers, [
    '127.0.0.1:5353',
    '[::1]:53',
    '10.0.0.1',
  ]);
  t.throws(() => loadConfig({ DNS_SERVERS: 'dns.example:53' }), /DNS_SERVERS/);
  const bare = loadConfig({ COMMON_DOMAIN: '' });
  t.equal(bare.commonDomain, '');
  t.same(bare.serviceDomains, ['mailbox.localhost']);
  t.equal(bare.mxHost, 'mx.mailbox.localhost');
});
