/**
 * The embedded DNS server of the dev mode (src/domains/dns-server.ts), asked through the service's own
 * resolver (src/domains/dns.ts) on real loopback sockets: its zones answered from its records, every
 * other name passed on to its upstream resolvers (the next one when one fails, SERVFAIL when all do),
 * and the dev mode's settings pointing DNS_SERVERS at it over the environment's.
 */
import { createSocket } from 'node:dgram';
import { Resolver } from 'node:dns/promises';
import t from 'tap';
import { devConfig, DEV_DOMAIN, startDevDns } from '../../src/cli/dev.js';
import { loadConfig } from '../../src/config.js';
import { createDns } from '../../src/domains/dns.js';
import { startDnsServer } from '../../src/domains/dns-server.js';

const resolverOn = (address: string) => createDns(loadConfig({ DNS_SERVERS: address }));

/** A loopback UDP port that takes questions and never answers: an upstream that is down. */
async function silentResolver(): Promise<{ address: string; close(): void }> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { address: `127.0.0.1:${socket.address().port}`, close: () => socket.close() };
}

t.test('its zones from its records; every other name from the upstream, as the upstream answers it', async (t) => {
  const upstream = await startDnsServer();
  upstream.txt('ailleurs.example', 'v=spf1 -all');
  upstream.txt('dev.mailbox.test', 'never asked: the zone is answered locally');
  const server = await startDnsServer({ zones: ['dev.mailbox.test'], upstream: [upstream.address] });
  t.teardown(async () => {
    await server.close();
    await upstream.close();
  });
  server.publish([
    { type: 'TXT', name: 'mbx1._domainkey.dev.mailbox.test', value: `v=DKIM1; k=rsa; p=${'A'.repeat(400)}` },
    { type: 'MX', name: 'dev.mailbox.test', value: 'mx.agents.mailbox.localhost' },
  ]);
  const dns = resolverOn(server.address);

  t.same(
    await dns.txt('mbx1._domainkey.dev.mailbox.test'),
    [`v=DKIM1; k=rsa; p=${'A'.repeat(400)}`],
    'a long TXT comes whole',
  );
  t.same(await dns.mx('dev.mailbox.test'), [{ exchange: 'mx.agents.mailbox.localhost', priority: 10 }]);
  t.same(
    await dns.txt('dev.mailbox.test'),
    [],
    'a known name of the zone, another type: no record (not asked upstream)',
  );
  t.same(await dns.txt('_dmarc.dev.mailbox.test'), [], 'an unknown name of the zone: no such name');
  t.same(await dns.txt('ailleurs.example'), ['v=spf1 -all'], 'another name: the upstream answer');
  t.same(await dns.txt('inconnu.example'), [], "the upstream's NXDOMAIN passed on");

  upstream.servfail = true;
  await t.rejects(dns.txt('ailleurs.example'), { code: 'dns_unavailable' }, "the upstream's failure passed on");
  t.same(
    await dns.mx('dev.mailbox.test'),
    [{ exchange: 'mx.agents.mailbox.localhost', priority: 10 }],
    'the zone still answers',
  );
});

t.test('an upstream that does not answer: the next one; none left: SERVFAIL', async (t) => {
  const down = await silentResolver();
  const up = await startDnsServer();
  up.a('hote.example', '192.0.2.7');
  const server = await startDnsServer({ zones: ['dev.mailbox.test'], upstream: [down.address, up.address] });
  const alone = await startDnsServer({ zones: ['dev.mailbox.test'], upstream: [down.address] });
  t.teardown(async () => {
    await Promise.all([server.close(), up.close(), alone.close()]);
    down.close();
  });
  // A resolver more patient than the 2 s each silent upstream is given.
  const patient = (address: string) => {
    const resolver = new Resolver({ timeout: 6000, tries: 1 });
    resolver.setServers([address]);
    return resolver;
  };
  t.same(await patient(server.address).resolve4('hote.example'), ['192.0.2.7']);
  await t.rejects(patient(alone.address).resolve4('hote.example'), { code: 'ESERVFAIL' });
});

t.test('without zones nor upstream (the tests): every name from the records', async (t) => {
  const server = await startDnsServer();
  t.teardown(() => server.close());
  server.a('mx.exemple.test', '127.0.0.1');
  const dns = resolverOn(server.address);
  t.same(await dns.addresses('mx.exemple.test'), ['127.0.0.1']);
  t.same(await dns.addresses('autre.exemple.test'), []);
  server.remove('mx.exemple.test');
  t.same(await dns.addresses('mx.exemple.test'), []);
});

t.test('the dev mode asks its own DNS, which passes the rest on to DNS_SERVERS', async (t) => {
  const upstream = await startDnsServer();
  upstream.txt('ailleurs.example', 'v=spf1 -all');
  const environment = loadConfig({ DNS_SERVERS: upstream.address });
  const devDns = await startDevDns(environment);
  t.teardown(async () => {
    await devDns.close();
    await upstream.close();
  });
  const config = devConfig(environment, devDns.address);
  t.same(config.dnsServers, [devDns.address]);
  devDns.mx(DEV_DOMAIN, 'mx.agents.mailbox.localhost');
  const dns = createDns(config);
  t.same(await dns.mx(DEV_DOMAIN), [{ exchange: 'mx.agents.mailbox.localhost', priority: 10 }]);
  t.same(await dns.txt('ailleurs.example'), ['v=spf1 -all']);
  t.equal(loadConfig({}).dnsServers, null, 'outside the dev mode: the system resolvers, untouched');
});
