/** Instants as ISO 8601, ids, the error table's messages, secret spotting, cursors, the stored form of authentication verdicts. */
import t from 'tap';
import { iso, ManualClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { decodeCursor, encodeCursor } from '../../src/cursor.js';
import { asMailboxError, ERROR_CODES, MailboxError } from '../../src/errors.js';
import { IdFactory, ID_PREFIXES, idPattern, idTime } from '../../src/ids.js';
import { carriesSecret, keySecret, spaceOfSecret } from '../../src/secrets.js';
import { authResultsOf, storedAuthResults } from '../../actors/stored-records.js';

t.test(
  'iso writes an instant as Date#toISOString does, across days, centuries and the years it cannot write short',
  async (t) => {
    const instants = [
      0,
      -1,
      1,
      1.5,
      -1.5,
      86_399_999.9,
      86_400_000,
      Date.parse('2026-03-29T01:00:00.000Z'),
      Date.parse('2000-02-29T23:59:59.999Z'),
      -62_167_219_200_000,
      -62_167_219_200_001,
      253_402_300_799_999,
      253_402_300_800_000,
    ];
    let seed = 11;
    for (let i = 0; i < 20_000; i++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      instants.push(Math.round((seed / 2 ** 31 - 0.4) * 8e12) + (i % 7));
    }
    const wrong = instants.filter((ms) => iso(ms) !== new Date(ms).toISOString());
    t.same(wrong, [], 'every instant as toISOString writes it');
    t.throws(() => iso(Number.NaN), RangeError, 'no instant: the same RangeError');
  },
);

t.test('ids: prefix, 20 Crockford characters, ordered by time', async (t) => {
  const clock = new ManualClock(Date.parse('2026-11-23T08:00:00Z'));
  const ids = new IdFactory(clock);
  const first = ids.next('message');
  clock.advance(1);
  const second = ids.next('message');
  t.match(first, new RegExp(idPattern('message')));
  t.ok(first < second, 'a later id sorts after');
  t.equal(
    idTime(second),
    Date.parse('2026-11-23T08:00:00.001Z'),
    'its time is read back from it (a journal line keeps no `at`)',
  );
  for (const kind of Object.keys(ID_PREFIXES) as (keyof typeof ID_PREFIXES)[]) {
    t.match(ids.next(kind), new RegExp(`^${ID_PREFIXES[kind]}_[0-9a-hjkmnp-tv-z]{20}$`));
  }
  const many = new Set(Array.from({ length: 10000 }, () => ids.next('event')));
  t.equal(many.size, 10000, 'unique within one millisecond');
});

t.test('every error code has a French message that says what to do, and a status', async (t) => {
  for (const code of ERROR_CODES) {
    const error = new MailboxError(code, { retry_after_seconds: 42, parameter: 'x', thread_id: 'thr_x' });
    t.ok(error.status >= 400 && error.status < 600, `${code} status`);
    t.match(error.message, /[.!]$/, `${code} ends a sentence`);
    t.notMatch(error.message, /undefined|null|\[object/, `${code} renders its hint`);
    t.same(error.toBody().error.code, code);
  }
  t.match(new MailboxError('rate_limited', { retry_after_seconds: 42 }).message, 'Réessayez dans 42 s.');
});

t.test('secrets: the space is read from the key; keys and their start are spotted in texts', async (t) => {
  const space = 'spc_01m7ybm5fnm4xw5z6kam';
  const secret = keySecret(space, 'A'.repeat(32));
  t.equal(spaceOfSecret(secret), space);
  t.equal(spaceOfSecret(secret + 'x'), null);
  t.equal(spaceOfSecret('Bearer ' + secret), null);
  const session = keySecret(space, 'B'.repeat(32), 'mbs');
  t.equal(spaceOfSecret(session, 'mbs'), space, 'sessions and OAuth secrets name their space the same way');
  t.equal(spaceOfSecret(session), null, 'a session is no key');
  t.ok(carriesSecret(`cookie ${session}`, 'spc_99999999999999999999'), 'nor may it be written in a message');
  t.ok(carriesSecret(`voici ${secret} !`, 'spc_99999999999999999999'), 'any key of any space');
  t.ok(carriesSecret(`début: ${secret.slice(0, 12)}`, space), 'the start of a key of this space');
  t.ok(carriesSecret('whsec_MDEyMzQ1Njc4OWFiY2RlZg==', space));
  t.notOk(carriesSecret('Bonjour, voici le devis mbx.', space));
});

t.test('cursors are bound to their query', async (t) => {
  const cursor = encodeCursor('spc_a|list_events|*|2026-11-23', 'log_x');
  t.equal(decodeCursor(cursor, 'spc_a|list_events|*|2026-11-23'), 'log_x');
  t.throws(() => decodeCursor(cursor, 'spc_b|list_events|*|2026-11-23'), { code: 'invalid_argument' });
  t.throws(() => decodeCursor('%%%', 'x'), { code: 'invalid_argument' });
});

t.test('configuration is checked at start, with the variable named', async (t) => {
  t.throws(() => loadConfig({ SEND_WINDOW: 'parfois' }), /SEND_WINDOW/);
  t.throws(() => loadConfig({ LOG_LEVEL: 'verbose' }), /LOG_LEVEL/);
  t.throws(() => loadConfig({ PLANS: '{"mini":{"inbox_cap":2,"daily_max":0}}' }), /daily_max/);
  t.throws(() => loadConfig({ MAILBOX_MASTER_KEY: 'c2hvcnQ=' }), /MAILBOX_MASTER_KEY/);
  t.throws(() => loadConfig({ PORT: '-1' }), /PORT/);
  t.throws(() => loadConfig({ SMTP_MAX_CONNECTIONS: '0' }), /SMTP_MAX_CONNECTIONS/);
  t.throws(() => loadConfig({ DELIVERY_LEASE_MS: '500' }), /DELIVERY_LEASE_MS/);
  t.equal(loadConfig({}).deliveryLeaseMs, 300_000, 'a delivery lease of 5 min by default');
  t.equal(
    loadConfig({ HOST: '0.0.0.0', PORT: '9000' }).baseUrl,
    'http://localhost:9000',
    'a wildcard host is no address for links',
  );
  t.equal(loadConfig({ BASE_URL: 'https://mail.exemple.fr/' }).baseUrl, 'https://mail.exemple.fr');
  t.equal(loadConfig({ PLANS: '{"mini":{"inbox_cap":2}}' }).plans.mini!.daily_max, 20);
});

t.test('Redis unreachable is service_unavailable (retry); any other failure stays internal', async (t) => {
  const named = (name: string, message = 'x') => Object.assign(new Error(message), { name });
  const down = [
    named('MaxRetriesPerRequestError'),
    named('ClusterAllFailedError'),
    new Error('Connection is closed.'),
    new Error('Command timed out'),
    new Error("Stream isn't writeable and enableOfflineQueue options is false"),
    new Error("Cluster isn't ready and enableOfflineQueue options is false"),
    new Error('Too many Cluster redirections. Last error: x'),
    new Error('CLUSTERDOWN The cluster is down'),
    new Error('TRYAGAIN Multiple keys request during rehashing'),
    new Error('MASTERDOWN Link with MASTER is down'),
    new Error('LOADING Redis is loading the dataset in memory'),
    new Error("READONLY You can't write against a read only replica."),
    new Error('connect ETIMEDOUT'),
    new Error('connect ECONNREFUSED 127.0.0.1:6379'),
    new Error('read ECONNRESET'),
    new Error('write EPIPE'),
  ];
  for (const error of down) {
    const refusal = asMailboxError(error);
    t.equal(refusal.code, 'service_unavailable', `${error.name}: ${error.message}`);
    t.equal(refusal.retryAfterSeconds, 2);
  }
  for (const error of [
    new Error('ERR Error running script: boom'),
    new TypeError('x is undefined'),
    'a string',
    null,
  ]) {
    t.equal(asMailboxError(error).code, 'internal', String((error as Error)?.message ?? error));
  }
  const own = new MailboxError('not_found');
  t.equal(asMailboxError(own), own, 'a refusal of the table is kept as it is');
});

t.test(
  'authentication verdicts: kept by position, the header From only when it is not the From; another shape kept whole',
  async (t) => {
    const from = 'lea@expediteur.test';
    const verdicts = {
      spf: 'pass',
      dkim: [
        { domain: 'expediteur.test', selector: 's1', result: 'pass' },
        { domain: 'relais.test', selector: null, result: 'fail' },
      ],
      dmarc: 'pass',
      arc: 'none',
      header_from: from,
    };
    const stored = storedAuthResults(verdicts, from);
    t.equal(stored, '["pass","pass","none",[["expediteur.test","s1","pass"],["relais.test",null,"fail"]]]');
    t.same(authResultsOf(stored, from), verdicts);
    const forged = { ...verdicts, dkim: [], header_from: ['autre@ailleurs.test'] };
    t.same(authResultsOf(storedAuthResults(forged, from), from), forged, 'a header From of its own is kept');
    t.same(
      authResultsOf(storedAuthResults({ spf: 'pass', extra: 1 }, from), from),
      { spf: 'pass', extra: 1 },
      'another shape: as JSON, whole',
    );
    t.same(authResultsOf(JSON.stringify(verdicts), from), verdicts, 'an object stored whole is read as it is');
    t.equal(authResultsOf('', from), null);
  },
);
