/**
 * verify_domain and the rechecks against a real authoritative DNS server on loopback: pending ->
 * verified, a record removed -> suspended, restored -> verified; dns_unavailable; the first proof wins;
 * the job schedulers and the worker that runs them.
 */
import t from 'tap';
import { QueueEvents } from 'bullmq';
import { recheckDomain } from '../../actors/domain.js';
import { MailboxError } from '../../src/errors.js';
import { globalKeys, QUEUE_PREFIX, spaceKeys } from '../../src/redis/keys.js';
import { workerConnection, domainQueue, recheckSchedulerId } from '../../src/redis/queues.js';
import { startDomainWorker } from '../../src/workers/domains.js';
import { iso } from '../../src/clock.js';
import { addDomain, MASTER_KEY, verifiedDomain, type TestDomain } from '../helpers/domains.js';
import { mondayMorning, startService } from '../helpers/service.js';
import { streamEnvelopes } from '../helpers/events.js';

const clock = mondayMorning();
const svc = await startService({ clock, env: { MAILBOX_MASTER_KEY: MASTER_KEY } });
const { mxHost, spfHost } = svc.rt.config;
const DAY = 24 * 3600 * 1000;

const record = (domain: TestDomain, label: string) => domain.records.find((r) => r.label.startsWith(label))!;
const states = (body: { records: { role: string; state: string }[] }) => body.records.map((r) => r.state);
const events = async (spaceId: string) => streamEnvelopes(svc.rt, spaceId);
const scheduler = (spaceId: string, domainId: string) =>
  domainQueue(svc.rt).getJobScheduler(recheckSchedulerId(spaceId, domainId));

t.test('pending -> verified as the records appear; found, absent, different with the value seen', async (t) => {
  const { apiKey, spaceId } = await svc.space();
  const domain = await addDomain(svc, apiKey);
  const verify = () => svc.call(apiKey, 'verify_domain', { domain: domain.domain });

  const nothing = await verify();
  t.equal(nothing.status, 200, JSON.stringify(nothing.body));
  t.equal(nothing.body.status, 'pending');
  t.same(states(nothing.body), ['absent', 'absent', 'absent', 'absent', 'absent', 'absent']);
  t.equal(nothing.body.last_checked_at, iso(clock.now()));
  t.equal(await svc.rt.redis.get(globalKeys.domain(domain.domain)), null, 'no proof, no claim');

  const [ownership, dkim1, dkim2, , , dmarc] = domain.records;
  svc.dns.txt(ownership!.name, ownership!.value);
  svc.dns.txt(dkim1!.name, dkim1!.value.replace(/p=(.{40})/, 'p=$1 \t'));
  svc.dns.txt(dkim2!.name, 'v=DKIM1; k=rsa; p=MIIBIjANBgkqh');
  svc.dns.txt(domain.domain, 'v=spf1 include:_spf.google.com ~all');
  svc.dns.txt(domain.domain, 'google-site-verification=abc');
  svc.dns.mx(domain.domain, 'mx.ailleurs.test', 20);
  clock.advance(60_000);
  const partial = await verify();
  t.equal(partial.body.status, 'pending');
  t.same(
    partial.body.records.map((r: { state: string; seen: string | null }) => [r.state, r.seen]),
    [
      ['found', ownership!.value],
      ['found', dkim1!.value.replace(/p=(.{40})/, 'p=$1 \t')],
      ['different', 'v=DKIM1; k=rsa; p=MIIBIjANBgkqh'],
      ['different', 'v=spf1 include:_spf.google.com ~all'],
      ['different', '20 mx.ailleurs.test'],
      ['absent', null],
    ],
    'a DKIM value with stray spaces still counts; only SPF records are judged at the apex',
  );
  const claim = JSON.parse((await svc.rt.redis.get(globalKeys.domain(domain.domain)))!);
  t.same(claim, { space_id: spaceId, domain_id: domain.id }, 'the proof claims the domain, even while pending');
  t.same(await events(spaceId), [], 'no event while pending');

  svc.dns.remove(dkim2!.name);
  svc.dns.txt(dkim2!.name, dkim2!.value);
  svc.dns.remove(domain.domain, 'TXT');
  svc.dns.txt(domain.domain, `v=spf1 include:_spf.google.com include:${spfHost} -all`);
  svc.dns.mx(domain.domain, `${mxHost}.`, 10);
  clock.advance(60_000);
  const done = await verify();
  t.equal(done.body.status, 'verified', JSON.stringify(done.body.records));
  t.same(states(done.body), ['found', 'found', 'found', 'found', 'found', 'absent'], 'DMARC is advised, not required');
  t.equal(done.body.verified_at, iso(clock.now()));
  t.equal(done.body.status_reason, null);
  t.equal(dmarc!.required, false);

  const [event] = await events(spaceId);
  t.match(event, {
    type: 'mail.domain.verified',
    occurred_at: iso(clock.now()),
    subject: { refs: { domain_id: domain.id } },
    data: { domain: domain.domain, domain_id: domain.id, restored: false },
  });
  t.notOk('reason' in event!.data);
  const journal = await svc.call(apiKey, 'list_events', { domain: domain.domain });
  t.same(
    journal.body.events.map((e: { kind: string }) => e.kind),
    ['domain.verified', 'domain.checked', 'domain.checked', 'domain.added'],
  );
  t.equal(journal.body.events[0].text, `Validation du domaine « ${domain.domain} »`);
  t.equal(
    journal.body.events[1].text,
    `Vérification DNS du domaine « ${domain.domain} » : 2 enregistrements requis sur 5 en place`,
  );

  const scheduled = await scheduler(spaceId, domain.id);
  t.equal(scheduled?.every, DAY, 'rechecked daily once verified');
  t.same(scheduled?.template?.data, { space_id: spaceId, domain_id: domain.id });
  t.ok(scheduled!.next! > Date.now() + DAY - 60_000, 'the first recheck is a day away');

  const again = await verify();
  t.equal(again.body.status, 'verified', 'checking a verified domain changes nothing');
  t.equal((await events(spaceId)).length, 1);
});

t.test('a verified domain: inboxes on it; a record gone -> suspended on recheck; restored -> verified', async (t) => {
  const { apiKey, spaceId } = await svc.space();
  const domain = await verifiedDomain(svc, apiKey);
  const box = await svc.call(apiKey, 'create_inbox', {
    username: 'ventes',
    domain: domain.domain,
    display_name: 'Ventes',
  });
  t.equal(box.status, 200);
  t.equal(box.body.shared, false);

  t.same(
    await recheckDomain(svc.rt, spaceId, domain.id).then((d) => d?.status),
    'verified',
    'a recheck with everything in place changes nothing',
  );
  const dkim2 = record(domain, 'Clé DKIM 2');
  svc.dns.remove(dkim2.name);
  clock.advance(DAY);
  const suspended = await recheckDomain(svc.rt, spaceId, domain.id);
  t.equal(suspended?.status, 'suspended');
  t.equal(suspended?.status_reason, 'records_missing', 'a reason code in Redis');
  const reason = 'enregistrements requis absents ou différents : Clé DKIM 2 (mbx2)';
  t.equal(suspended?.last_checked_at, iso(clock.now()));
  const view = (await svc.call(apiKey, 'list_domains', {})).body.domains[0];
  t.equal(view.status, 'suspended');
  t.equal(view.status_reason, reason, 'the French of its code, with the records missing');
  t.equal(view.records[2].state, 'absent');
  t.equal((await scheduler(spaceId, domain.id))?.every, 3600 * 1000, 'rechecked hourly while suspended');
  t.equal(
    await svc.rt.redis.hget(spaceKeys(spaceId).domain(domain.domain), 'status'),
    'suspended',
    'where the send path reads it',
  );

  let [, suspendedEvent] = await events(spaceId);
  t.match(suspendedEvent, {
    type: 'mail.domain.suspended',
    data: { domain: domain.domain, reason, missing: ['Clé DKIM 2 (mbx2)'] },
  });
  const refused = await svc.call(apiKey, 'create_inbox', {
    username: 'achats',
    domain: domain.domain,
    display_name: 'Achats',
  });
  t.equal(refused.status, 409);
  t.equal(refused.body.error.code, 'domain_suspended');
  const byDefault = await svc.call(apiKey, 'create_inbox', { username: `x-${Date.now()}`, display_name: 'X' });
  t.equal(byDefault.body.shared, true, 'a suspended domain is no default: the common domain is');

  clock.advance(3600 * 1000);
  t.equal((await recheckDomain(svc.rt, spaceId, domain.id))?.status, 'suspended', 'still missing: still suspended');
  t.equal((await events(spaceId)).length, 2, 'no second event');

  svc.dns.txt(dkim2.name, dkim2.value);
  clock.advance(3600 * 1000);
  const restored = await recheckDomain(svc.rt, spaceId, domain.id);
  t.equal(restored?.status, 'verified', 'restored automatically');
  t.equal(restored?.status_reason, '');
  t.equal(restored?.verified_at, iso(clock.now()));
  const all = await events(spaceId);
  t.equal(all.length, 3);
  t.match(all[2], { type: 'mail.domain.verified', data: { restored: true } });
  suspendedEvent = all[1];
  t.equal(suspendedEvent!.type, 'mail.domain.suspended');
  t.equal((await scheduler(spaceId, domain.id))?.every, DAY, 'daily again');
  const journal = await svc.call(apiKey, 'list_events', { domain: domain.domain });
  t.same(
    journal.body.events.slice(0, 2).map((e: { text: string }) => e.text),
    [
      `Rétablissement du domaine « ${domain.domain} »`,
      `Suspension du domaine « ${domain.domain} » : enregistrements requis absents ou différents : Clé DKIM 2 (mbx2)`,
    ],
  );
  t.equal(journal.body.events[0].actor.kind, 'service', 'the recheck is the service');
  t.equal(
    (await svc.call(apiKey, 'create_inbox', { username: 'achats', domain: domain.domain, display_name: 'Achats' }))
      .status,
    200,
  );

  // verify_domain restores too, without waiting for the hourly recheck.
  svc.dns.remove(domain.domain, 'MX');
  await recheckDomain(svc.rt, spaceId, domain.id);
  svc.dns.mx(domain.domain, mxHost);
  const verified = await svc.call(apiKey, 'verify_domain', { domain: domain.domain });
  t.equal(verified.body.status, 'verified');
});

t.test('dns_unavailable: nothing checked, nothing changed', async (t) => {
  const { apiKey, spaceId } = await svc.space();
  const domain = await verifiedDomain(svc, apiKey);
  const before = await svc.rt.redis.hgetall(spaceKeys(spaceId).domain(domain.domain));
  const eventsBefore = (await events(spaceId)).length;
  clock.advance(DAY);
  svc.dns.servfail = true;
  try {
    const res = await svc.call(apiKey, 'verify_domain', { domain: domain.domain });
    t.equal(res.status, 503);
    t.equal(res.body.error.code, 'dns_unavailable');
    t.same(res.body.error.hint, { retry_after_seconds: 60 });
    t.equal(res.headers.get('retry-after'), '60');
    await t.rejects(
      recheckDomain(svc.rt, spaceId, domain.id),
      new MailboxError('dns_unavailable', { retry_after_seconds: 60 }),
    );
  } finally {
    svc.dns.servfail = false;
  }
  t.same(
    await svc.rt.redis.hgetall(spaceKeys(spaceId).domain(domain.domain)),
    before,
    'state unchanged: still verified',
  );
  t.equal((await events(spaceId)).length, eventsBefore);
  const unreachable = await startService({ env: { MAILBOX_MASTER_KEY: MASTER_KEY, DNS_SERVERS: '127.0.0.1:9' } });
  const other = await unreachable.space();
  const pending = await addDomain(unreachable, other.apiKey);
  const res = await unreachable.call(other.apiKey, 'verify_domain', { domain: pending.domain });
  t.equal(res.body.error.code, 'dns_unavailable', 'a resolver that does not answer');
});

t.test('the first space to publish its proof wins: domain_taken for the other', async (t) => {
  const first = await svc.space();
  const second = await svc.space();
  const a = await addDomain(svc, first.apiKey);
  const b = await addDomain(svc, second.apiKey, a.domain);
  t.not(record(a, 'Preuve').value, record(b, 'Preuve').value, 'a token per space');
  svc.dns.publish(b.records.filter((r) => r.role === 'ownership'));
  const won = await svc.call(second.apiKey, 'verify_domain', { domain: b.domain });
  t.equal(won.body.status, 'pending', 'proof alone does not verify...');
  t.equal(
    JSON.parse((await svc.rt.redis.get(globalKeys.domain(b.domain)))!).space_id,
    second.spaceId,
    '...but claims the domain',
  );

  svc.dns.publish(a.records);
  const lost = await svc.call(first.apiKey, 'verify_domain', { domain: a.domain });
  t.equal(lost.status, 409);
  t.equal(lost.body.error.code, 'domain_taken');
  const stillPending = (await svc.call(first.apiKey, 'list_domains', {})).body.domains[0];
  t.equal(stillPending.last_checked_at, null, 'nothing recorded for the loser');
  t.equal(
    (await svc.call(first.apiKey, 'create_inbox', { username: 'x', domain: a.domain, display_name: 'X' })).body.error
      .code,
    'domain_not_verified',
  );

  svc.dns.publish(b.records.filter((r) => r.role !== 'ownership'));
  t.equal((await svc.call(second.apiKey, 'verify_domain', { domain: b.domain })).body.status, 'verified');
  const unknown = await svc.call(second.apiKey, 'verify_domain', { domain: 'inconnu.test' });
  t.equal(unknown.status, 404);
  t.equal(unknown.body.error.code, 'not_found');
});

t.test('a removed domain is forgotten by its recheck; the worker runs recheck jobs', async (t) => {
  const { apiKey, spaceId } = await svc.space();
  const gone = await verifiedDomain(svc, apiKey);
  t.equal((await svc.call(apiKey, 'remove_domain', { domain: gone.domain, confirm: true })).status, 200);
  t.equal(await recheckDomain(svc.rt, spaceId, gone.id), null);
  t.notOk(await scheduler(spaceId, gone.id));

  const domain = await verifiedDomain(svc, apiKey);
  const worker = startDomainWorker(svc.rt);
  const connection = workerConnection(svc.rt.redis);
  const queueEvents = new QueueEvents('domains', { connection, prefix: QUEUE_PREFIX.domains });
  t.teardown(async () => {
    await queueEvents.close();
    connection.disconnect();
    await worker.close();
  });
  await queueEvents.waitUntilReady();
  svc.dns.remove(record(domain, 'MX').name, 'MX');
  const job = await domainQueue(svc.rt).add('recheck', { space_id: spaceId, domain_id: domain.id });
  t.same(await job.waitUntilFinished(queueEvents, 20_000), { status: 'suspended' });
  t.equal((await svc.call(apiKey, 'list_domains', {})).body.domains[0].status, 'suspended');
});
