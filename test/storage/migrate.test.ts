/**
 * The storage format and `mailbox admin migrate` (docs/operations.md, "Upgrading"): each older layout is
 * written into a real Redis with raw commands, as an older version left it, the migration is run through
 * the CLI, then the service's own code reads it. The store here is the file's own redis-server, even under
 * the Cluster run: lowering the format of a shared store would stop the other files' processes.
 */
import { HISTORY_SHARDS } from '../../actors/history-index.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { SWEEP_GRACE_MS, sweepOrphanBlobs } from '../../actors/attachments.js';
import { runningCampaignsOf } from '../../actors/campaign.js';
import { DUE_SHARDS } from '../../actors/due-index.js';
import { receiveInbound } from '../../actors/inbound.js';
import { suspendInbox } from '../../actors/inbox.js';
import { storedClient } from '../../actors/oauth-clients.js';
import { authenticate } from '../../actors/space.js';
import { webhookState } from '../../actors/webhook.js';
import { blobKey, blobSetMember, sha256Of } from '../../src/blobs/store.js';
import { ManualClock } from '../../src/clock.js';
import { createRedis } from '../../src/redis/connect.js';
import { globalKeys, shardOf, spaceKeys } from '../../src/redis/keys.js';
import { startLocalRedis } from '../../src/redis/local.js';
import { keySecret, sha256Hex } from '../../src/secrets.js';
import { STORAGE_FORMAT } from '../../src/storage/format.js';
import { REASONS } from '../../src/texts.js';
import { UNSHARDED_RUNNING_CAMPAIGNS } from '../../src/storage/migrations/008-running-campaigns.js';
import { MIGRATIONS } from '../../src/storage/migrations/index.js';
import { runCollecting } from '../helpers/cli.js';
import { MASTER_KEY } from '../helpers/domains.js';
import { send, sender } from '../helpers/outbound.js';
import { startService } from '../helpers/service.js';
import { receivedMail } from '../helpers/mail.js';

const dir = mkdtempSync(join(tmpdir(), 'mbx-migrate-'));
const local = await startLocalRedis(dir, { persist: false });
t.teardown(async () => {
  await local.stop();
  rmSync(dir, { recursive: true, force: true });
});
const clock = new ManualClock(Date.now());
const svc = await startService({ clock, redis: { url: local.url }, env: { MAILBOX_MASTER_KEY: MASTER_KEY } });
const redis = svc.rt.redis;
/** What `mailbox` is run with: the same store and anonymous index as the service. */
const env = {
  REDIS_URL: local.url,
  LOG_LEVEL: 'error',
  ANONYMOUS_INDEX: svc.rt.config.anonymous.index,
  MAILBOX_MASTER_KEY: MASTER_KEY,
};
const mailbox = (...argv: string[]) => runCollecting(argv, env);
const migrate = async () => {
  const run = await mailbox('admin', 'migrate');
  return { code: run.code, err: run.err, lines: run.lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
};
const s = await sender(svc);
/** What `mailbox admin migrate` prints from format `from`: each later step with what it rewrote (0 unless named), then the formats. */
const linesFrom = (from: number, rewritten: Record<string, number>) => [
  ...MIGRATIONS.slice(from).map((step, i) => ({
    step: from + i + 1,
    name: step.name,
    rewritten: rewritten[step.name] ?? 0,
  })),
  { from, to: STORAGE_FORMAT },
];

t.test('the steps are numbered from 1 and today’s format is the last', async (t) => {
  t.equal(STORAGE_FORMAT, MIGRATIONS.length);
  t.same(
    MIGRATIONS.map((step) => step.name),
    [
      'blob-members',
      'oauth-clients',
      'reason-codes',
      'contact-index',
      'access-tokens',
      'event-entries',
      'due-index',
      'running-campaigns',
      'history-index',
    ],
  );
});

t.test('a store written before the format existed starts nothing until migrated', async (t) => {
  await redis.del(globalKeys.storageFormat);
  for (const argv of [
    ['serve', '--role', 'worker'],
    ['admin', 'index-humans'],
  ]) {
    const run = await mailbox(...argv);
    t.equal(run.code, 1, argv.join(' '));
    t.match(
      run.err,
      `Le stockage Redis est au format 0, plus ancien que celui de cette version de Mailbox (${STORAGE_FORMAT})`,
    );
    t.match(run.err, 'lancez `mailbox admin migrate`');
  }
});

t.test(
  'blob members in hex (001-blob-members): base64url after, the orphan sweep keeps what they point to',
  async (t) => {
    const kept = await receiveInbound(
      svc.rt,
      s.spaceId,
      { id: s.inboxId, address: s.address },
      receivedMail({
        from: 'paul@destinataire.test',
        from_name: 'Paul',
        subject: 'Gardé',
        text: 'Ci-joint.',
        attachments: [
          {
            filename: 'garde.csv',
            content_type: 'text/csv',
            content: Buffer.from('a;b\n'),
            inline: false,
            content_id: null,
          },
        ],
      }),
    );
    const csv = sha256Of(Buffer.from('a;b\n'));
    const set = spaceKeys(s.spaceId).blobs;
    // As a set written before base64url members held it.
    t.equal(await redis.srem(set, blobSetMember(csv)), 1);
    await redis.sadd(set, csv);
    await redis.del(globalKeys.storageFormat);

    const run = await migrate();
    t.equal(run.code, 0, run.err);
    t.same(run.lines, linesFrom(0, { 'blob-members': 1 }));
    t.same(await redis.smismember(set, csv, blobSetMember(csv)), [0, 1]);
    clock.advance(SWEEP_GRACE_MS + 60_000);
    t.equal(await sweepOrphanBlobs(svc.rt), 0, 'no blob a record points to is taken for an orphan');
    t.ok(await svc.rt.ports.blobs.get(blobKey(s.spaceId, csv)));
    const message = await svc.call(s.apiKey, 'get_message', { message_id: kept.message_id });
    const attachment = await svc.call(s.apiKey, 'get_attachment', {
      message_id: kept.message_id,
      attachment_id: message.body.attachments[0].id,
    });
    t.equal(attachment.body.text, 'a;b');
    t.equal((await mailbox('admin', 'index-humans')).code, 0, 'the migrated store starts');
  },
);

t.test(
  'OAuth clients as JSON objects (002-oauth-clients), resumed after step 1: compact after, their expiry kept',
  async (t) => {
    const inUse = {
      client_id: 'mcl_AAAAAAAAAAAAAAAAAAAAAAAA',
      client_name: 'Assistant',
      redirect_uris: ['https://assistant.test/cb'],
      source: 'registered',
      client_id_issued_at: Math.floor(clock.now() / 1000),
    };
    const pending = { ...inUse, client_id: 'mcl_BBBBBBBBBBBBBBBBBBBBBBBB', client_name: 'En attente' };
    await redis.set(globalKeys.oauthClient(sha256Hex(inUse.client_id)), JSON.stringify(inUse), 'PX', 3_600_000);
    await redis.hset(
      globalKeys.pendingClients(svc.rt.config.anonymous.index),
      pending.client_id,
      JSON.stringify(pending),
    );
    // A migration stopped after its first step.
    await redis.set(globalKeys.storageFormat, 1);

    const run = await migrate();
    t.equal(run.code, 0, run.err);
    t.same(run.lines, linesFrom(1, { 'oauth-clients': 2 }));
    t.same(await storedClient(svc.rt, inUse.client_id), inUse);
    t.same(await storedClient(svc.rt, pending.client_id), pending);
    t.equal(
      await redis.get(globalKeys.oauthClient(sha256Hex(inUse.client_id))),
      JSON.stringify([inUse.client_id_issued_at, 'Assistant', ['https://assistant.test/cb']]),
    );
    t.ok((await redis.pttl(globalKeys.oauthClient(sha256Hex(inUse.client_id)))) > 3_500_000, 'its expiry kept');
  },
);

t.test('reasons stored as French sentences (003-reason-codes): codes after, the same words read', async (t) => {
  const keys = spaceKeys(s.spaceId);
  const figures = { sent_7d: 40, bounced_7d: 3, complaints_7d: 0 };
  t.equal(await suspendInbox(svc.rt, s.spaceId, s.inboxId, 'bounce_rate', figures), true);
  const sentence =
    '3 rebonds définitifs sur 40 envois en 7 jours (7,5 %, seuil 5 %) : nettoyez la liste de destinataires';
  // As the breaker, a domain check and a webhook delivery wrote them before reasons were codes.
  await redis.hset(keys.inbox(s.inboxId), 'status_reason', sentence);
  await redis.hset(keys.domain(s.domain), 'status_reason', 'enregistrements requis absents ou différents : SPF');
  await redis.hset(keys.webhook, {
    url: 'https://hook.test/recevoir',
    declared_at: clock.now(),
    attempts: 0,
    next_at: 0,
    last_error: 'réponse HTTP 503',
  });
  const lines = await redis.hgetall(keys.journal);
  const [lineId, raw] = Object.entries(lines).find(([, json]) => JSON.parse(json).kind === 'inbox.suspended')!;
  const line = JSON.parse(raw);
  const { sent_7d: _sent, bounced_7d: _bounced, complaints_7d: _complaints, ...data } = line.data;
  line.data = { ...data, reason: sentence };
  await redis.hset(keys.journal, lineId, JSON.stringify(line));
  await redis.set(globalKeys.storageFormat, 2);

  const run = await migrate();
  t.equal(run.code, 0, run.err);
  t.same(run.lines, linesFrom(2, { 'reason-codes': 4 }));
  t.same(await redis.hmget(keys.inbox(s.inboxId), 'status_reason'), ['bounce_rate']);
  t.same(await redis.hmget(keys.domain(s.domain), 'status_reason'), ['records_missing']);
  t.same(await redis.hmget(keys.webhook, 'last_error'), ['http_503']);
  t.match(JSON.parse((await redis.hget(keys.journal, lineId))!).data, {
    reason: 'bounce_rate',
    ...figures,
    complaints_7d: undefined,
  });

  const status = await svc.call(s.apiKey, 'inbox_status', { inbox_id: s.inboxId });
  t.equal(status.body.inbox.status_reason, REASONS.bounce_rate);
  const sent = await send(svc, s);
  t.equal(sent.body.error.code, 'inbox_suspended');
  t.equal(sent.body.error.hint.reason, 'bounce_rate', 'the send path answers the code');
  const domains = await svc.call(s.apiKey, 'list_domains', {});
  t.equal(domains.body.domains[0].status_reason, REASONS.records_missing);
  t.equal((await webhookState(svc.rt, s.spaceId))?.last_error, 'réponse HTTP 503');
  const journal = await svc.call(s.apiKey, 'list_events', { inbox_id: s.inboxId });
  t.equal(
    journal.body.events[0].text,
    `Suspension de la boîte « ${s.address} » : ${sentence}`,
    'the line reads as it did',
  );
});

t.test(
  'contacts without their index (004-contact-index): every address indexed, listed in address order',
  async (t) => {
    const other = await svc.space();
    const keys = spaceKeys(other.spaceId);
    // As add_contacts wrote them before the index: the contacts' hash alone.
    const emails = Array.from({ length: 1200 }, (_, i) => `ancien-${String(i).padStart(4, '0')}@exemple.test`);
    await redis.hset(keys.contacts, ...emails.flatMap((email, i) => [email, JSON.stringify({ name: `Ancien ${i}` })]));
    await redis.set(globalKeys.storageFormat, 3);

    const run = await migrate();
    t.equal(run.code, 0, run.err);
    t.same(run.lines, linesFrom(3, { 'contact-index': emails.length }));
    const first = await svc.call(other.apiKey, 'list_contacts', { limit: 3 });
    t.same(
      first.body.items,
      emails.slice(0, 3).map((email, i) => ({ email, name: `Ancien ${i}`, fields: {} })),
    );
    const after = await svc.call(other.apiKey, 'list_contacts', { limit: 2, cursor: first.body.next_cursor });
    t.same(
      after.body.items.map((c: { email: string }) => c.email),
      emails.slice(3, 5),
      'the cursor follows the index',
    );
  },
);

t.test(
  'access tokens issued before they named their connection and scope (005-access-tokens): refused after, today’s kept',
  async (t) => {
    const other = await svc.space();
    const keys = spaceKeys(other.spaceId);
    const resource = `${svc.rt.config.baseUrl}/mcp`;
    const expiry = clock.now() + 3_600_000;
    // As issueTokens-3 stored them then: no key id in the token, no scope beside it.
    const older = keySecret(other.spaceId, 'A'.repeat(32), 'mbt');
    await redis.set(keys.oauthAccess(sha256Hex(older)), `${other.keyId} ${resource} ${expiry}`, 'PX', 3_600_000);
    const today = `${keySecret(other.spaceId, 'B'.repeat(32), 'mbt')}_${other.keyId.slice('key_'.length)}`;
    await redis.set(keys.oauthAccess(sha256Hex(today)), `${other.keyId} ${resource} ${expiry} read`, 'PX', 3_600_000);
    await redis.set(globalKeys.storageFormat, 4);

    const run = await migrate();
    t.equal(run.code, 0, run.err);
    t.same(run.lines, linesFrom(4, { 'access-tokens': 1 }));
    t.equal(await redis.exists(keys.oauthAccess(sha256Hex(older))), 0);
    await t.rejects(
      authenticate(svc.rt, older, resource),
      { code: 'unauthorized' },
      'its client renews it with its refresh token',
    );
    t.same((await authenticate(svc.rt, today, resource)).key.permissions, ['read'], 'a token of today’s form works on');
  },
);

t.test(
  'events in the two older entry layouts (006-event-entries): the same feed after, the webhook group where it was',
  async (t) => {
    const keys = spaceKeys(s.spaceId);
    const before = (await svc.call(s.apiKey, 'event_feed', { limit: 100 })).body.events as {
      id: string;
      type: string;
      subject: unknown;
      data: Record<string, unknown>;
    }[];
    const entries = (await redis.xrange(keys.events, '-', '+')) as [string, string[]][];
    t.equal(entries.length, before.length);
    t.ok(
      before.some((e) => e.type === 'mail.message.received') && before.some((e) => e.type === 'mail.inbox.suspended'),
      'a message event and another',
    );
    // As older versions stored them: a message's event and the suspension as the envelope JSON (the
    // message's with its fill), the others as five fields.
    const older = entries.map(([id, [, packed]], i): [string, string[]] => {
      const [body, code, message, subject, data] = packed!.split('\n') as [string, string, string, string, string];
      if (before[i]!.type === 'mail.inbox.suspended') return [id, ['e', JSON.stringify(before[i])]];
      if (!message) return [id, ['i', body, 't', code, 'm', '', 's', subject, 'd', data]];
      const envelope = before[i]!;
      const ids = {
        message_id: envelope.data.message_id,
        thread_id: envelope.data.thread_id,
        inbox_id: envelope.data.inbox_id,
      };
      return [
        id,
        ['e', JSON.stringify({ ...envelope, data: ids, fill: { message_id: `msg_${message}`, kind: 'inbound' } })],
      ];
    });
    t.same(
      older
        .map(([, fields]) => fields[0])
        .sort()
        .filter((name, i, all) => name !== all[i - 1]),
      ['e', 'i'],
      'both older layouts',
    );
    await redis.del(keys.events);
    for (const [id, fields] of older) await redis.xadd(keys.events, id, ...fields);
    // A webhook group that delivered the first entry and holds the second unacknowledged.
    await redis.xgroup('CREATE', keys.events, 'webhooks', '0');
    await redis.xreadgroup('GROUP', 'webhooks', 'delivery', 'COUNT', 2, 'STREAMS', keys.events, '>');
    await redis.xack(keys.events, 'webhooks', entries[0]![0]);
    await redis.set(globalKeys.storageFormat, 5);

    const run = await migrate();
    t.equal(run.code, 0, run.err);
    t.same(run.lines, linesFrom(5, { 'event-entries': entries.length }));
    t.ok(
      ((await redis.xrange(keys.events, '-', '+')) as [string, string[]][]).every(([, fields]) => fields[0] === 'p'),
      'every entry in today’s layout',
    );
    t.same((await svc.call(s.apiKey, 'event_feed', { limit: 100 })).body.events, before, 'the feed answers as before');
    const next = (await redis.xreadgroup('GROUP', 'webhooks', 'delivery', 'COUNT', 1, 'STREAMS', keys.events, '>')) as [
      string,
      [string, string[]][],
    ][];
    t.equal(next[0]![1][0]![0], entries[1]![0], 'the unacknowledged entry is delivered again');
    t.equal(await redis.exists(keys.eventsRewrite), 0);
  },
);

t.test(
  'spaces queued before the due index (007-due-index): indexed at their earliest departure, the others left out',
  async (t) => {
    const queued = await sender(svc);
    t.equal((await send(svc, queued, { send_after: new Date(clock.now() + 3_600_000).toISOString() })).status, 200);
    const dueKey = globalKeys.dueSpaces(shardOf(queued.spaceId, DUE_SHARDS));
    const departure = await redis.zscore(dueKey, queued.spaceId);
    // As a space queued before the index existed: its queue alone.
    await redis.zrem(dueKey, queued.spaceId);
    await redis.set(globalKeys.storageFormat, 6);

    const run = await migrate();
    t.equal(run.code, 0, run.err);
    t.same(run.lines, linesFrom(6, { 'due-index': 1 }));
    t.equal(await redis.zscore(dueKey, queued.spaceId), departure, 'due at its departure, as a send today marks it');
  },
);

t.test("running campaigns in the one older set (008-running-campaigns): moved into their space's shard", async (t) => {
  const entries = [`${s.spaceId} cmp_0000000000aaaaaaaaaa`, `${s.spaceId} cmp_0000000000bbbbbbbbbb`];
  await redis.sadd(UNSHARDED_RUNNING_CAMPAIGNS, ...entries);
  await redis.set(globalKeys.storageFormat, 7);

  const run = await migrate();
  t.equal(run.code, 0, run.err);
  t.same(run.lines, linesFrom(7, { 'running-campaigns': 2 }));
  t.equal(await redis.exists(UNSHARDED_RUNNING_CAMPAIGNS), 0, 'the older set is gone');
  t.same(await redis.smismember(runningCampaignsOf(s.spaceId), ...entries), [1, 1], "in the space's shard");
  await redis.srem(runningCampaignsOf(s.spaceId), ...entries);
});

t.test('spaces created before the history index (009-history-index): each enters it, due at once', async (t) => {
  const key = globalKeys.historySpaces(shardOf(s.spaceId, HISTORY_SHARDS));
  const indexed = Number(await redis.zscore(key, s.spaceId));
  t.ok(indexed > 0, 'a space enters the index when created');
  await redis.zrem(key, s.spaceId);
  await redis.set(globalKeys.storageFormat, 8);

  const run = await migrate();
  t.equal(run.code, 0, run.err);
  t.same(run.lines, linesFrom(8, { 'history-index': 1 }));
  t.ok(Number(await redis.zscore(key, s.spaceId)) > 0, 'in its shard of the index');
  await redis.zadd(key, indexed, s.spaceId);
});

t.test('a store at today’s format migrates as a no-op', async (t) => {
  // Keys, not their count: a key of the service's own (a budget, a lease) may expire meanwhile.
  const before = new Set(await redis.keys('*'));
  const run = await migrate();
  t.equal(run.code, 0, run.err);
  t.same(run.lines, [{ from: STORAGE_FORMAT, to: STORAGE_FORMAT }]);
  t.same(
    (await redis.keys('*')).filter((key) => !before.has(key)),
    [],
    'no key written',
  );
});

t.test('a store written by a later version refuses to start, and to migrate', async (t) => {
  await redis.set(globalKeys.storageFormat, STORAGE_FORMAT + 1);
  for (const argv of [
    ['serve', '--role', 'worker'],
    ['admin', 'index-humans'],
    ['admin', 'migrate'],
  ]) {
    const run = await mailbox(...argv);
    t.equal(run.code, 1, argv.join(' '));
    t.match(
      run.err,
      `Le stockage Redis est au format ${STORAGE_FORMAT + 1}, plus récent que celui de cette version de Mailbox (${STORAGE_FORMAT})`,
    );
  }
  t.equal(await redis.get(globalKeys.storageFormat), String(STORAGE_FORMAT + 1), 'left as it was');
  await redis.set(globalKeys.storageFormat, STORAGE_FORMAT);
});

t.test('an empty store is marked at today’s format by its first process', async (t) => {
  const emptyDir = mkdtempSync(join(tmpdir(), 'mbx-migrate-empty-'));
  const empty = await startLocalRedis(emptyDir, { persist: false });
  t.teardown(async () => {
    await empty.stop();
    rmSync(emptyDir, { recursive: true, force: true });
  });
  const run = await runCollecting(['admin', 'index-humans'], { ...env, REDIS_URL: empty.url });
  t.equal(run.code, 0, run.err);
  t.same(run.lines, ['{"indexed":0}']);
  const client = createRedis({ url: empty.url });
  t.teardown(() => client.disconnect());
  t.equal(await client.get(globalKeys.storageFormat), String(STORAGE_FORMAT));
});
