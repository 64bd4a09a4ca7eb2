/** set_webhook: the declaration, its secret, and every refusal (URL rules, SSRF guard, limits, configuration). */
import { randomBytes } from 'node:crypto';
import { networkInterfaces } from 'node:os';
import t from 'tap';
import { webhookContext } from '../../actors/webhook.js';
import { ManualClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { open } from '../../src/crypto.js';
import { spaceKeys } from '../../src/redis/keys.js';
import { bareHost, checkedAddress } from '../../src/webhooks/address.js';
import { startService } from '../helpers/service.js';

const MASTER_KEY = randomBytes(32).toString('base64');
const clock = new ManualClock(Date.parse('2026-11-23T08:00:00.000Z'));
const svc = await startService({ clock, env: { MAILBOX_MASTER_KEY: MASTER_KEY, WEBHOOKS_DECLARED_PER_24H: '3' } });
/** A public address, never called (no webhook worker here); the documentation ranges are refused. */
const PUBLIC_IP = '93.184.215.14';
const PUBLIC_URL = `https://${PUBLIC_IP}/crochets/mailbox`;

const declare = (apiKey: string, url: string) => svc.call(apiKey, 'set_webhook', { url });
const later = () => clock.advance(61_000);
const unique = (label: string) => `${label}-${randomBytes(4).toString('hex')}.test`;

t.test(
  'declares: secret shown once, stored sealed, journalled without it; a second declaration replaces',
  async (t) => {
    const { apiKey, spaceId } = await svc.space();
    svc.dns.a('crochet.exemple.test', '93.184.215.15');
    const first = await declare(apiKey, 'https://Crochet.Exemple.TEST/recevoir?source=mailbox#ignoré');
    t.equal(first.status, 200, JSON.stringify(first.body.error ?? 'déclaré'));
    t.match(first.body, { replaced: false, url: 'https://crochet.exemple.test/recevoir?source=mailbox' });
    t.match(first.body.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    t.equal(Buffer.from(first.body.secret.slice(6), 'base64').length, 32);
    t.ok(first.body.events.includes('mail.message.delivered') && first.body.events.includes('webhook.test'));

    const stored = (await svc.rt.redis.hgetall(spaceKeys(spaceId).webhook)) as { secret: string };
    t.match(stored.secret, /^v1\./, 'sealed');
    t.notOk(stored.secret.includes(first.body.secret.slice(6)), 'never in clear');
    t.equal(open(Buffer.from(MASTER_KEY, 'base64'), stored.secret, webhookContext(spaceId)), first.body.secret);
    t.throws(
      () => open(Buffer.from(MASTER_KEY, 'base64'), stored.secret, webhookContext('spc_autre')),
      'bound to its space',
    );

    later();
    const second = await declare(apiKey, PUBLIC_URL);
    t.match(second.body, { replaced: true, url: PUBLIC_URL });
    t.not(second.body.secret, first.body.secret, 'a new secret');
    const journal = await svc.call(apiKey, 'list_events', {});
    t.same(
      journal.body.events.slice(0, 2).map((e: any) => [e.kind, e.text, e.actor.you]),
      [
        ['webhook.declared', `Remplacement du webhook par « ${PUBLIC_URL} »`, true],
        ['webhook.declared', 'Déclaration du webhook « https://crochet.exemple.test/recevoir?source=mailbox »', true],
      ],
    );
    const raw = Object.values(await svc.rt.redis.hgetall(spaceKeys(spaceId).journal)).join('\n');
    t.notOk(raw.includes('whsec_'), 'no secret in the journal');
    const settings = await svc.call(apiKey, 'get_settings');
    t.equal(settings.body.limits.webhooks_declared_per_24h, 3, 'the configured limit is reported');
    t.same(
      settings.body.webhook,
      {
        url: PUBLIC_URL,
        declared_at: new Date(svc.clock.now()).toISOString(),
        failed_attempts: 0,
        next_attempt_at: null,
        last_error: null,
      },
      'get_settings tells the webhook, never its secret',
    );
  },
);

t.test('URL rules: https only, 500 characters, an address, no credentials', async (t) => {
  const { apiKey, spaceId } = await svc.space();
  for (const url of [
    `http://${PUBLIC_IP}/crochet`,
    `ftp://${PUBLIC_IP}/`,
    'pas une adresse',
    `https://${PUBLIC_IP}/${'a'.repeat(501 - `https://${PUBLIC_IP}/`.length)}`,
    `https://utilisateur:motdepasse@${PUBLIC_IP}/`,
    '',
  ]) {
    const res = await declare(apiKey, url);
    t.equal(res.status, 400, url);
    t.equal(res.body.error.code, 'invalid_argument');
    t.equal(res.body.error.hint.parameter, 'url');
  }
  t.equal(
    (await declare(apiKey, `https://${PUBLIC_IP}/${'a'.repeat(499 - `https://${PUBLIC_IP}/`.length)}`)).status,
    200,
    '500 characters pass',
  );
  t.match((await declare(apiKey, `http://${PUBLIC_IP}/`)).body.error.message, /https/);
  t.ok(await svc.rt.redis.exists(spaceKeys(spaceId).webhook));
});

t.test('SSRF guard: internal addresses and names refused at declaration', async (t) => {
  const { apiKey, spaceId } = await svc.space();
  const refused = [
    'https://127.0.0.1/',
    'https://127.8.9.10:8443/',
    'https://[::1]/',
    'https://2130706433/',
    'https://0x7f.1/',
    'https://localhost/',
    'https://api.localhost/',
    'https://10.1.2.3/',
    'https://172.16.5.4/',
    'https://172.31.255.255/',
    'https://192.168.0.1/',
    'https://169.254.169.254/latest/meta-data/',
    'https://169.254.1.1/',
    'https://100.64.0.1/',
    'https://100.127.255.254/',
    'https://0.0.0.0/',
    'https://224.0.0.1/',
    'https://255.255.255.255/',
    'https://[fc00::1]/',
    'https://[fd00:ec2::254]/',
    'https://[fe80::1]/',
    'https://[::]/',
    'https://[ff02::1]/',
    'https://[::ffff:10.0.0.1]/',
    'https://[::ffff:127.0.0.1]/',
    'https://[64:ff9b::a00:1]/',
    'https://metadata.google.internal/computeMetadata/v1/',
    'https://db.internal/',
    'https://imprimante.local/',
  ];
  for (const url of refused) {
    const res = await declare(apiKey, url);
    t.equal(res.body.error?.code, 'invalid_argument', url);
    t.equal(res.body.error?.hint.parameter, 'url');
  }
  const cases: [string, string][] = [
    ['prive', '192.168.10.20'],
    ['boucle', '127.0.0.1'],
    ['cgnat', '100.70.0.1'],
    ['meta', '169.254.169.254'],
  ];
  for (const [label, ip] of cases) {
    const name = unique(label);
    svc.dns.a(name, ip);
    const res = await declare(apiKey, `https://${name}/crochet`);
    t.equal(res.body.error?.code, 'invalid_argument', `${name} -> ${ip}`);
    t.match(res.body.error?.message, ip);
  }
  const unknown = await declare(apiKey, `https://${unique('inconnu')}/`);
  t.equal(unknown.body.error.code, 'invalid_argument', 'a name that resolves to nothing');
  svc.dns.servfail = true;
  const dns = await declare(apiKey, `https://${unique('panne')}/`);
  svc.dns.servfail = false;
  t.equal(dns.status, 503);
  t.equal(dns.body.error.code, 'dns_unavailable');
  t.equal(await svc.rt.redis.exists(spaceKeys(spaceId).webhook), 0, 'nothing declared');
  t.equal((await declare(apiKey, 'https://[2606:4700:4700::1111]/')).status, 200, 'a public IPv6 address passes');
  later();
  t.equal((await declare(apiKey, `https://${PUBLIC_IP}:8443/`)).status, 200, 'a public IPv4 address passes');
});

t.test(
  'SSRF guard: special-purpose ranges of both IANA registries, IPv4 carried in IPv6, the machine itself',
  async (t) => {
    const { apiKey } = await svc.space();
    // [url, the refused address the message names]
    const refused: [string, string][] = [
      ['https://[::127.0.0.1]/', '127.0.0.1'], // IPv4-compatible ::/96
      ['https://[::ffff:0:a00:1]/', '10.0.0.1'], // IPv4-translated ::ffff:0:0:0/96
      ['https://[::ffff:169.254.169.254]/', '169.254.169.254'], // IPv4-mapped ::ffff:0:0/96
      ['https://[64:ff9b::c0a8:101]/', '192.168.1.1'], // NAT64 64:ff9b::/96
      ['https://[64:ff9b:1::101:101]/', '64:ff9b:1::101:101'], // local-use NAT64 64:ff9b:1::/48, whatever it carries
      ['https://[2002:7f00:1::1]/', '127.0.0.1'], // 6to4 2002::/16
      ['https://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/', '10.0.0.1'], // Teredo: its client, inverted
      ['https://[2001:0:a00:1:8000:63bf:fefe:fefe]/', '10.0.0.1'], // Teredo: its server
      ['https://192.0.2.1/', '192.0.2.1'],
      ['https://198.51.100.7/', '198.51.100.7'],
      ['https://203.0.113.10/', '203.0.113.10'],
      ['https://[2001:db8::10]/', '2001:db8::10'],
      ['https://[3fff::1]/', '3fff::1'], // documentation
      ['https://198.18.0.1/', '198.18.0.1'],
      ['https://198.19.255.254/', '198.19.255.254'],
      ['https://[2001:2::1]/', '2001:2::1'], // benchmarking
      ['https://192.0.0.8/', '192.0.0.8'],
      ['https://192.0.0.170/', '192.0.0.170'],
      ['https://[2001:10::1]/', '2001:10::1'], // IETF protocol assignments
      ['https://192.88.99.1/', '192.88.99.1'],
      ['https://[100::1]/', '100::1'],
      ['https://[5f00::1]/', '5f00::1'],
      ['https://[fec0::1]/', 'fec0::1'],
      ['https://[4000::1]/', '4000::1'], // IPv6 outside global unicast
    ];
    for (const [url, address] of refused) {
      const res = await declare(apiKey, url);
      t.equal(res.body.error?.code, 'invalid_argument', url);
      t.ok(res.body.error?.message.includes(`: ${address})`), `${url}: ${res.body.error?.message}`);
    }
    const own = Object.values(networkInterfaces())
      .flat()
      .find((net) => net && !net.internal && net.family === 'IPv4');
    if (own) {
      const res = await declare(apiKey, `https://${own.address}/`);
      t.match(res.body.error?.message, `adresse de cette machine : ${own.address}`, 'an address of this machine');
      const name = unique('moi');
      svc.dns.a(name, own.address);
      t.match(
        (await declare(apiKey, `https://${name}/`)).body.error?.message,
        'adresse de cette machine',
        'a name pointing at it',
      );
    }

    const config = loadConfig({});
    for (const allowed of [
      '[::ffff:93.184.215.14]',
      '[64:ff9b::5db8:d70e]',
      '[2002:5db8:d70e::1]',
      '[2001:0:4136:e378:8000:63bf:a247:28f1]',
      '[2a00:1450:4007:80e::200e]',
    ]) {
      const url = new URL(`https://${allowed}/`);
      t.equal(await checkedAddress(config, url), bareHost(url), `${allowed}: carries or is a public address`);
    }
  },
);

t.test('webhook_too_soon: 60 s between declarations, the wait in the hint', async (t) => {
  const { apiKey } = await svc.space();
  t.equal((await declare(apiKey, PUBLIC_URL)).status, 200);
  clock.advance(20_000);
  const soon = await declare(apiKey, PUBLIC_URL);
  t.equal(soon.status, 429);
  t.equal(soon.body.error.code, 'webhook_too_soon');
  t.same(soon.body.error.hint, { retry_after_seconds: 40 });
  t.equal(soon.headers.get('retry-after'), '40');
  t.match(soon.body.error.message, /Réessayez dans 40 s\.$/);
  clock.advance(40_000);
  t.equal((await declare(apiKey, PUBLIC_URL)).status, 200);
});

t.test('space_rate_limited: WEBHOOKS_DECLARED_PER_24H in any 24 h', async (t) => {
  const { apiKey } = await svc.space();
  for (let i = 0; i < 3; i++) {
    t.equal((await declare(apiKey, PUBLIC_URL)).status, 200);
    later();
  }
  const limited = await declare(apiKey, PUBLIC_URL);
  t.equal(limited.status, 429);
  t.equal(limited.body.error.code, 'space_rate_limited');
  t.equal(limited.body.error.hint.retry_after_seconds, 86400 - 3 * 61);
  t.match(limited.body.error.message, /^Trop de déclarations de webhook en 24 heures/);
  clock.advance((86400 - 3 * 61) * 1000);
  t.equal((await declare(apiKey, PUBLIC_URL)).status, 200, 'the oldest left the window');
});

t.test('secret_in_message: a key or a secret in the URL', async (t) => {
  const { apiKey } = await svc.space();
  const other = await svc.space();
  for (const url of [
    `https://${PUBLIC_IP}/crochet?cle=${apiKey}`,
    `https://${PUBLIC_IP}/crochet?cle=${other.apiKey}`,
    `https://${PUBLIC_IP}/${apiKey.slice(0, 12)}`,
    `https://${PUBLIC_IP}/?s=whsec_${randomBytes(32).toString('base64')}`,
  ]) {
    const res = await declare(apiKey, url);
    t.equal(res.status, 422);
    t.equal(res.body.error.code, 'secret_in_message');
    t.equal(res.body.error.hint.parameter, 'url');
  }
});

t.test('forbidden without approve; space_unverified', async (t) => {
  const { apiKey } = await svc.space();
  const agent = await svc.key(apiKey, { name: 'agent', permissions: ['send', 'read'] });
  const forbidden = await declare(agent.apiKey, PUBLIC_URL);
  t.equal(forbidden.status, 403);
  t.equal(forbidden.body.error.code, 'forbidden');
  const unverified = await svc.space({ verified: false });
  const res = await declare(unverified.apiKey, PUBLIC_URL);
  t.equal(res.status, 403);
  t.equal(res.body.error.code, 'space_unverified');
});

t.test('encryption_unavailable without a master key; webhooks_unavailable when turned off', async (t) => {
  const bare = await startService({ clock });
  const { apiKey } = await bare.space();
  const noKey = await bare.call(apiKey, 'set_webhook', { url: PUBLIC_URL });
  t.equal(noKey.status, 503);
  t.equal(noKey.body.error.code, 'encryption_unavailable');
  const off = await startService({ clock, env: { MAILBOX_MASTER_KEY: MASTER_KEY, WEBHOOKS_ENABLED: 'false' } });
  const space = await off.space();
  const disabled = await off.call(space.apiKey, 'set_webhook', { url: PUBLIC_URL });
  t.equal(disabled.status, 503);
  t.equal(disabled.body.error.code, 'webhooks_unavailable');
  t.match(disabled.body.error.message, /event_feed/);
  t.equal(disabled.headers.get('retry-after'), '60');
});
