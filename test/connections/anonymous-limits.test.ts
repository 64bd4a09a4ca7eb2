/**
 * The budgets of the endpoints reached without a key (actors/anonymous-budget.ts, src/http/anonymous.ts):
 * OAuth registration, authorization and token (with revocation), and the human's sign-in, per client
 * address and for the whole service, in Redis (two front ends share them); the client address from
 * the connection unless a proxy's header is configured; IPv6 by /64; refused requests write nothing, so
 * the table of buckets stays as small as what was admitted. Budgets of a few requests here (the
 * defaults are checked as configuration), client addresses from X-Forwarded-For.
 */
import t from 'tap';
import { loadConfig } from '../../src/config.js';
import { globalKeys } from '../../src/redis/keys.js';
import { budgetAddress } from '../../src/http/anonymous.js';
import { mondayMorning, startService, type TestService } from '../helpers/service.js';

const clock = mondayMorning();
const PER_HOUR = 5;
const budget = `${PER_HOUR}/h,100000/h`;
const defaults = {
  RATE_LIMIT_REGISTER: budget,
  RATE_LIMIT_AUTHORIZE: budget,
  RATE_LIMIT_TOKEN: budget,
  RATE_LIMIT_SIGNIN: budget,
  CLIENT_ADDRESS_HEADER: 'x-forwarded-for',
};
const svc = await startService({ clock, env: defaults });
const HOUR = 3_600_000;

t.test('the default budgets, per address then in all', async (t) => {
  const hour = (burst: number) => ({ burst, periodMs: HOUR });
  t.same(loadConfig({}).anonymous, {
    budgets: {
      register: { perAddress: hour(30), service: hour(3600) },
      authorize: { perAddress: hour(120), service: hour(7200) },
      token: { perAddress: hour(600), service: hour(36000) },
      signin: { perAddress: hour(30), service: hour(3600) },
    },
    pendingClients: 10_000,
    addressHeader: null,
    index: 'anon',
  });
  t.throws(() => loadConfig({ RATE_LIMIT_SIGNIN: '30/h' }), /RATE_LIMIT_SIGNIN doit être deux budgets/);
  t.throws(() => loadConfig({ RATE_LIMIT_TOKEN: '0/h,10/h' }), /RATE_LIMIT_TOKEN doit être deux budgets/);
  t.throws(() => loadConfig({ CLIENT_ADDRESS_HEADER: 'x forwarded' }), /CLIENT_ADDRESS_HEADER/);
  t.same(loadConfig({ RATE_LIMIT_REGISTER: '2/m,1/s' }).anonymous.budgets.register, {
    perAddress: { burst: 2, periodMs: 60_000 },
    service: { burst: 1, periodMs: 1000 },
  });
});

interface Endpoint {
  name: 'register' | 'authorize' | 'token' | 'signin';
  send(service: TestService, headers: Record<string, string>): Promise<Response>;
}

const form = { 'content-type': 'application/x-www-form-urlencoded' };
const ENDPOINTS: Endpoint[] = [
  {
    name: 'register',
    send: (service, headers) =>
      fetch(`${service.url}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ client_name: 'x', redirect_uris: ['https://a.example/cb'] }),
      }),
  },
  {
    name: 'authorize',
    send: (service, headers) =>
      fetch(`${service.url}/oauth/authorize?client_id=mcl_inconnu`, { headers, redirect: 'manual' }),
  },
  {
    name: 'token',
    send: (service, headers) =>
      fetch(`${service.url}/oauth/token`, {
        method: 'POST',
        headers: { ...form, ...headers },
        body: 'grant_type=refresh_token&refresh_token=x&client_id=y',
      }),
  },
  {
    name: 'signin',
    send: (service, headers) =>
      fetch(`${service.url}/signin/code`, {
        method: 'POST',
        headers: { ...form, ...headers },
        body: 'email=a%40exemple.fr&attempt=x&code=000000',
        redirect: 'manual',
      }),
  },
];

for (const endpoint of ENDPOINTS) {
  t.test(
    `${endpoint.name}: its budget from one address, then 429 with Retry-After; other addresses go on`,
    async (t) => {
      const address = { 'x-forwarded-for': `198.51.100.${ENDPOINTS.indexOf(endpoint) + 1}` };
      const statuses = new Set<number>();
      for (let i = 0; i < PER_HOUR; i++) statuses.add((await endpoint.send(svc, address)).status);
      t.notOk(statuses.has(429), 'the budget passes');
      const refused = await endpoint.send(svc, address);
      t.equal(refused.status, 429);
      t.equal(
        refused.headers.get('retry-after'),
        String(HOUR / PER_HOUR / 1000),
        'one request comes back every 1/n hour',
      );
      const text = await refused.text();
      t.match(text, 'Trop de demandes depuis votre adresse réseau');
      if (endpoint.name === 'register' || endpoint.name === 'token') {
        t.equal(JSON.parse(text).error, 'temporarily_unavailable', 'an OAuth error body');
        t.equal(refused.headers.get('access-control-allow-origin'), '*', 'readable by browser-based clients');
      }
      t.not(
        (await endpoint.send(svc, { 'x-forwarded-for': '192.0.2.200' })).status,
        429,
        'another address has its own',
      );
      clock.advance(HOUR / PER_HOUR);
      t.not((await endpoint.send(svc, address)).status, 429, 'refilled');
    },
  );
}

t.test("the service's budget, and an address past its own that never spends it", async (t) => {
  const small = await startService({ clock, env: { ...defaults, RATE_LIMIT_REGISTER: '5/h,20/h' } });
  const register = ENDPOINTS[0]!;
  const flood: number[] = [];
  for (let i = 0; i < 50; i++) flood.push((await register.send(small, { 'x-forwarded-for': '203.0.113.1' })).status);
  t.same(flood, [...Array(5).fill(201), ...Array(45).fill(429)], 'one address: its five');
  const many: number[] = [];
  for (let i = 2; i <= 17; i++) many.push((await register.send(small, { 'x-forwarded-for': `203.0.113.${i}` })).status);
  t.same(many, [...Array(15).fill(201), 429], 'its 45 refusals spent none of the twenty');
  const refused = await register.send(small, { 'x-forwarded-for': '203.0.113.99' });
  t.match(await refused.text(), 'Le service reçoit trop de demandes de ce type');
  const buckets = globalKeys.anonymousBuckets(small.rt.config.anonymous.index, 'register');
  t.equal(
    await small.rt.redis.hlen(buckets),
    17,
    'a bucket per admitted address (16) and the service: refused ones wrote nothing',
  );
  t.ok((await small.rt.redis.pttl(buckets)) > 0, 'and the table expires when left alone');
});

t.test('buckets full again are dropped by the next requests: no sweep, a bounded table', async (t) => {
  const service = await startService({ clock, env: { ...defaults, RATE_LIMIT_SIGNIN: '2/m,100000/h' } });
  const signin = ENDPOINTS[3]!;
  for (let i = 1; i <= 30; i++) await signin.send(service, { 'x-forwarded-for': `203.0.113.${i}` });
  const buckets = globalKeys.anonymousBuckets(service.rt.config.anonymous.index, 'signin');
  t.equal(await service.rt.redis.hlen(buckets), 31);
  clock.advance(60_000);
  await signin.send(service, { 'x-forwarded-for': '192.0.2.1' });
  t.equal(await service.rt.redis.hlen(buckets), 22, 'ten full ones gone, one new');
  for (let i = 0; i < 3; i++) await signin.send(service, { 'x-forwarded-for': '192.0.2.1' });
  t.equal(await service.rt.redis.hlen(buckets), 2, 'the service and the one address in use');
});

t.test('two front ends on one Redis share the budgets', async (t) => {
  const env = { ...defaults, ANONYMOUS_INDEX: `anon-shared-${Date.now()}`, RATE_LIMIT_SIGNIN: '4/h,1000/h' };
  const [a, b] = [await startService({ clock, env }), await startService({ clock, env })];
  const signin = ENDPOINTS[3]!;
  const statuses: number[] = [];
  for (let i = 0; i < 5; i++)
    statuses.push((await signin.send(i % 2 ? a : b, { 'x-forwarded-for': '203.0.113.50' })).status);
  t.same(
    statuses.map((status) => status === 429),
    [false, false, false, false, true],
  );
});

t.test('the client address: the connection unless a header is configured; its last entry; IPv6 by /64', async (t) => {
  const direct = await startService({
    clock,
    env: { ...defaults, CLIENT_ADDRESS_HEADER: '', RATE_LIMIT_SIGNIN: '3/h,1000/h' },
  });
  const signin = ENDPOINTS[3]!;
  const forged: number[] = [];
  for (let i = 1; i <= 4; i++) forged.push((await signin.send(direct, { 'x-forwarded-for': `203.0.113.${i}` })).status);
  t.same(
    forged.map((status) => status === 429),
    [false, false, false, true],
    'no header configured: a forged one changes nothing',
  );

  const proxied = await startService({ clock, env: { ...defaults, RATE_LIMIT_SIGNIN: '3/h,1000/h' } });
  const chained: number[] = [];
  for (let i = 1; i <= 4; i++)
    chained.push((await signin.send(proxied, { 'x-forwarded-for': `10.0.0.${i}, 203.0.113.77` })).status);
  t.same(
    chained.map((status) => status === 429),
    [false, false, false, true],
    'the last entry, the one the proxy wrote, counts',
  );
  const v6: number[] = [];
  for (const address of [
    '2001:db8:1:2::1',
    '2001:db8:1:2:ffff::9',
    '2001:db8:1:2:aaaa:bbbb:cccc:dddd',
    '2001:db8:1:2::4',
  ]) {
    v6.push((await signin.send(proxied, { 'x-forwarded-for': address })).status);
  }
  t.same(
    v6.map((status) => status === 429),
    [false, false, false, true],
    'one /64, one budget',
  );
  t.not((await signin.send(proxied, { 'x-forwarded-for': '2001:db8:1:3::1' })).status, 429, 'the next /64 has its own');

  t.equal(
    budgetAddress('0000:0000:0000:0000:0000:ffff:7f00:0001'),
    '127.0.0.1',
    'an IPv4 client of a dual-stack socket',
  );
  t.equal(budgetAddress('2001:0db8:0001:0002:0003:0004:0005:0006'), '2001:db8:1:2::/64');
  t.equal(budgetAddress('pas une adresse'), null);
});
