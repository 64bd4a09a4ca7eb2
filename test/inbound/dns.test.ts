/** The SMTP side's DNS cache: one query per name and period, answers, empty answers and failures kept for their own times. */
import t from 'tap';
import { ManualClock } from '../../src/clock.js';
import { cachedResolver, type Resolve } from '../../src/smtp/dns.js';

const failure = (code: string) => Object.assign(new Error(`queryTxt ${code}`), { code });

/** A resolver that counts its queries and answers from a table (a missing name: ENOTFOUND). */
function counting(table: Record<string, string[][] | Error>) {
  const asked: string[] = [];
  const resolve: Resolve = async (name, rrtype) => {
    asked.push(`${rrtype} ${name}`);
    const answer = table[name];
    if (answer === undefined) throw failure('ENOTFOUND');
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { asked, resolve };
}

t.test('an answer is asked once for 5 minutes, whatever the case of the name', async (t) => {
  const clock = new ManualClock(Date.parse('2026-11-23T09:00:00Z'));
  const dns = counting({ 'exp.test': [['v=spf1 -all']] });
  const cached = cachedResolver(dns.resolve, () => clock.now());
  t.same(await cached('exp.test', 'TXT'), [['v=spf1 -all']]);
  t.same(await cached('EXP.test', 'TXT'), [['v=spf1 -all']]);
  clock.advance(5 * 60_000 - 1);
  await cached('exp.test', 'TXT');
  t.equal(dns.asked.length, 1);
  await cached('exp.test', 'MX').catch(() => undefined);
  t.equal(dns.asked.length, 2, 'another record type is another query');
  clock.advance(1);
  await cached('exp.test', 'TXT');
  t.equal(dns.asked.length, 3, 'asked again once expired');
});

t.test('concurrent lookups of one name share the query in flight', async (t) => {
  const dns = counting({ 'exp.test': [['x']] });
  const cached = cachedResolver(dns.resolve, () => 0);
  const answers = await Promise.all([cached('exp.test', 'TXT'), cached('exp.test', 'TXT'), cached('exp.test', 'TXT')]);
  t.same(answers, [[['x']], [['x']], [['x']]]);
  t.equal(dns.asked.length, 1);
});

t.test('no such name is kept 1 minute, a failure 10 seconds, both with their codes', async (t) => {
  const clock = new ManualClock(0);
  const dns = counting({ 'down.test': failure('ETIMEOUT') });
  const cached = cachedResolver(dns.resolve, () => clock.now());
  await t.rejects(cached('_dmarc.none.test', 'TXT'), { code: 'ENOTFOUND' });
  await t.rejects(cached('down.test', 'TXT'), { code: 'ETIMEOUT' });
  clock.advance(9_999);
  await t.rejects(cached('_dmarc.none.test', 'TXT'), { code: 'ENOTFOUND' });
  await t.rejects(cached('down.test', 'TXT'), { code: 'ETIMEOUT' });
  t.equal(dns.asked.length, 2);
  clock.advance(1);
  await t.rejects(cached('down.test', 'TXT'), { code: 'ETIMEOUT' });
  t.equal(dns.asked.length, 3, 'a failure is asked again after 10 s');
  clock.advance(50_000);
  await t.rejects(cached('_dmarc.none.test', 'TXT'), { code: 'ENOTFOUND' });
  t.equal(dns.asked.length, 4, 'an empty answer is asked again after 1 min');
});

t.test('past 10,000 names the oldest entry goes', async (t) => {
  const dns = counting({});
  const cached = cachedResolver(dns.resolve, () => 0);
  for (let i = 0; i <= 10_000; i++) await cached(`n${i}.test`, 'TXT').catch(() => undefined);
  await cached('n10000.test', 'TXT').catch(() => undefined);
  t.equal(dns.asked.length, 10_001, 'the newest is still cached');
  await cached('n0.test', 'TXT').catch(() => undefined);
  t.equal(dns.asked.length, 10_002, 'the oldest was dropped');
});
