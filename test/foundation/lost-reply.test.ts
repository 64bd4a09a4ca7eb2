/**
 * A lost Redis reply runs a script twice (docs/operations.md, "A lost Redis reply"): through a proxy
 * that swallows a script's reply and drops the connection after Redis ran it, ioredis sends the same
 * EVALSHA again on reconnection. The second run must write nothing and answer as the first did: one
 * message, one count, one event, and no refusal for what the first run did.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { createConnection, issueTokens, newAccessToken, newSecret } from '../../actors/connection.js';
import { receiveInbound, type InboundMail } from '../../actors/inbound.js';
import { SERVICE_ACTOR } from '../../actors/journal.js';
import { checkSignInCode, requestSignInCode } from '../../actors/signin-codes.js';
import { globalKeys, spaceKeys } from '../../src/redis/keys.js';
import { sha256Hex } from '../../src/secrets.js';
import { lastCode } from '../helpers/codes.js';
import { readScripts } from '../../src/redis/scripts.js';
import { MASTER_KEY, verifiedDomain } from '../helpers/domains.js';
import { inboxState, recipient, send, sender } from '../helpers/outbound.js';
import { clusterMode, testRedis, testRedisTarget } from '../helpers/redis.js';
import { startRedisProxy } from '../helpers/redis-proxy.js';
import { mondayMorning, startService } from '../helpers/service.js';
import { streamEnvelopes } from '../helpers/events.js';
import { receivedMail } from '../helpers/mail.js';

const scripts = readScripts();
const sha = (name: string): string =>
  createHash('sha1')
    .update(scripts.find((s) => s.name === name)!.source)
    .digest('hex');
// Loaded beforehand, so the first call is the EVALSHA the proxy waits for (not a NOSCRIPT then an EVAL).
const direct = await testRedis();
for (const file of scripts) await direct.script('LOAD', file.source);

// The proxy stands in front of one redis-server; a Cluster client resends the same way.
const skip = clusterMode() ? 'the proxy forwards to a single redis-server' : false;
const proxy = skip ? null! : await startRedisProxy(await testRedisTarget());
const dataDir = mkdtempSync(join(tmpdir(), 'mbx-lost-reply-'));
t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
const svc = skip
  ? null!
  : await startService({
      clock: mondayMorning(),
      env: { MAILBOX_MASTER_KEY: MASTER_KEY, MAILBOX_DATA_DIR: dataDir },
      redis: proxy.target,
    });
const today = '2026-11-23';

/** Runs `work` with the reply of the next call of `script` lost; checks the loss happened. */
async function losingReplyOf<T>(t: Test, script: string, work: () => Promise<T>): Promise<T> {
  const before = proxy.lost;
  proxy.loseReplyTo(sha(script));
  const result = await work();
  proxy.disarm();
  t.equal(proxy.lost, before + 1, `the reply of ${script} was lost`);
  return result;
}

/** The ids of the space's events of one type, to see that none was appended twice. */
async function eventIds(spaceId: string, type: string): Promise<string[]> {
  return (await streamEnvelopes(svc.rt, spaceId)).filter((e) => e.type === type).map((e) => e.id);
}

t.test('send_email: one message, queued 1, one slot, one key count, one event', { skip }, async (t) => {
  const s = await sender(svc);
  const res = await losingReplyOf(t, 'message/createOutbound', () => send(svc, s));
  t.equal(res.status, 200, JSON.stringify(res.body));
  t.equal(res.body.replayed, false, 'answered as the first run, not as an idempotent replay');
  const state = await inboxState(svc, s);
  t.same(state.inboxQueueIds, [res.body.message.id]);
  t.equal(state.queued, 1);
  t.equal(state.slots[today], '1');
  t.same(Object.values(state.keySent), ['1']);
  t.equal((await eventIds(s.spaceId, 'mail.message.queued')).length, 1, 'one event');
  t.equal(res.body.inbox.queued, 1, 'the figures of the first run');
});

t.test('send_email as a test send (no duplicate rule): still one of everything', { skip }, async (t) => {
  const s = await sender(svc);
  const res = await losingReplyOf(t, 'message/createOutbound', () =>
    send(svc, s, { test: true, to: 'humain@exemple.fr' }),
  );
  t.equal(res.status, 200, JSON.stringify(res.body));
  const state = await inboxState(svc, s);
  t.equal(state.queued, 1);
  t.equal(state.inboxQueueIds.length, 1);
  t.equal(state.slots[today], '1');
  t.same(Object.values(state.keySent), ['1']);
  t.equal((await eventIds(s.spaceId, 'mail.message.queued')).length, 1, 'one event');
});

const mail = (from: string, extra: Partial<InboundMail> = {}): InboundMail =>
  receivedMail({
    from,
    subject: 'Question',
    text: 'Bonjour',
    ...extra,
  });

t.test('the inbound store: one message in one thread, one event, not a duplicate', { skip }, async (t) => {
  const s = await sender(svc);
  const inbox = { id: s.inboxId, address: s.address };
  const bare = await losingReplyOf(t, 'message/receiveInbound', () =>
    receiveInbound(svc.rt, s.spaceId, inbox, mail(recipient())),
  );
  const keys = spaceKeys(s.spaceId);
  t.same(
    await direct.hmget(keys.thread(bare.thread_id), 'message_count', 'unread'),
    ['1', '1'],
    'a mail without Message-ID counted once',
  );
  t.equal(await direct.hget(keys.thread(bare.thread_id), 'msgs'), bare.message_id, 'filed once in its thread');
  const withId = await losingReplyOf(t, 'message/receiveInbound', () =>
    receiveInbound(svc.rt, s.spaceId, inbox, mail(recipient(), { message_id_header: '<a1@ailleurs.test>' })),
  );
  t.equal(withId.duplicate, false, "the first run stored it: not reported as a sender's retry");
  t.equal(withId.event, 'mail.message.received');
  const events = await eventIds(s.spaceId, 'mail.message.received');
  t.equal(events.length, 2, 'one event each');
  t.equal(new Set(events).size, 2, 'no event id twice');
});

t.test('cancel_message: the second run answers the cancellation, not not_cancellable', { skip }, async (t) => {
  const s = await sender(svc);
  const queued = await send(svc, s);
  const res = await losingReplyOf(t, 'message/cancelMessage', () =>
    svc.call(s.apiKey, 'cancel_message', { message_id: queued.body.message.id }),
  );
  t.equal(res.status, 200, JSON.stringify(res.body));
  t.equal(res.body.status, 'cancelled');
  const state = await inboxState(svc, s);
  t.same([state.queued, state.slots[today], state.inboxQueueIds], [0, '0', []]);
});

t.test('create_inbox: one inbox, its domain counts it once', { skip }, async (t) => {
  const { apiKey } = await svc.space({ plan: 'pro' });
  const { domain } = await verifiedDomain(svc, apiKey);
  const res = await losingReplyOf(t, 'inbox/createInbox', () =>
    svc.call(apiKey, 'create_inbox', { username: 'contact', domain, display_name: 'Contact' }),
  );
  t.equal(res.status, 200, JSON.stringify(res.body));
  const list = await svc.call(apiKey, 'list_inboxes');
  t.same(
    list.body.items.map((i: { id: string }) => i.id),
    [res.body.id],
  );
  const spaceId = (await svc.call(apiKey, 'get_settings')).body.space.id as string;
  t.equal(await direct.hget(spaceKeys(spaceId).domain(domain), 'live_inboxes'), '1');
});

t.test('create_key: the key is made once and answered, not key_name_taken', { skip }, async (t) => {
  const { apiKey, spaceId } = await svc.space();
  const res = await losingReplyOf(t, 'space/createKey', () =>
    svc.call(apiKey, 'create_key', { name: 'robot', permissions: ['read'] }),
  );
  t.equal(res.status, 200, JSON.stringify(res.body));
  t.equal(await direct.hlen(spaceKeys(spaceId).keys), 2);
  t.equal(await direct.zcard(spaceKeys(spaceId).keyCreations), 1);
  const used = await svc.call(res.body.api_key, 'get_settings');
  t.equal(used.status, 200, 'the key answered is the key stored');
});

t.test(
  'a refresh: the new pair once, the connection alive, not revoked as a reuse of its token',
  { skip },
  async (t) => {
    const { spaceId } = await svc.space();
    const request = {
      clientId: 'mcl_perte',
      clientName: 'Client',
      redirectUri: 'https://a.example/cb',
      codeChallenge: 'x',
      resource: 'r',
      permissions: ['read' as const],
      inboxIds: null,
    };
    const { keyId } = await createConnection(svc.rt, spaceId, SERVICE_ACTOR, newSecret(spaceId, 'mbc'), request);
    const grant = { key_id: keyId, client_id: 'mcl_perte', scope: ['read' as const], resource: 'r' };
    const first = newSecret(spaceId, 'mbr');
    await issueTokens(svc.rt, spaceId, newAccessToken(spaceId, keyId), first, grant);
    const next = newSecret(spaceId, 'mbr');
    const rotated = await losingReplyOf(t, 'space/rotateTokens', () =>
      issueTokens(svc.rt, spaceId, newAccessToken(spaceId, keyId), next, grant, first),
    );
    t.same(rotated, { rotated: true, reused: false }, 'answered as the first run');
    t.equal(await direct.hget(spaceKeys(spaceId).oauthRefresh(sha256Hex(first)), 'used'), '1');
    t.equal(
      await direct.hget(spaceKeys(spaceId).oauthRefresh(sha256Hex(next)), 'used'),
      '0',
      'the new refresh token, unused',
    );
    t.equal(await direct.hexists(spaceKeys(spaceId).keys, keyId), 1, 'the connection lives');
  },
);

t.test('a sign-in code asked and checked: one code counted, one attempt, the same answers', { skip }, async (t) => {
  const email = `perte-${Date.now()}@exemple.fr`;
  const { spaceId } = await svc.space({ human: email });
  const attempt = await losingReplyOf(t, 'human/askCode', () =>
    requestSignInCode(svc.rt, { email, space: null, client: '192.0.2.1', device: null }),
  );
  t.equal(await direct.zcard(globalKeys.humanCodeSends(sha256Hex(email))), 1, 'counted once, not refused as too soon');
  const code = (await lastCode(svc, email))!;
  const checked = await losingReplyOf(t, 'human/checkCode', () =>
    checkSignInCode(svc.rt, { email, attempt, code, space: null, device: 'appareil' }),
  );
  t.same(checked, { kind: 'space', spaceId }, 'the space, not no_pending_code');
  await t.rejects(
    checkSignInCode(svc.rt, { email, attempt, code, space: null, device: 'autre' }),
    { code: 'no_pending_code' },
    'spent for any other browser',
  );
});
