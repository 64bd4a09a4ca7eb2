/**
 * Unsubscribe links end to end over real HTTP: the token proves itself (forged or altered: a French
 * 404 page), GET only asks, the RFC 8058 one-click POST writes the space's suppression entry with its
 * journal line and `mail.contact.unsubscribed` event once, a test send's link unsubscribes nobody; the
 * derived key, and the embedded master key file.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { deriveKey, masterKeyFile } from '../../src/crypto.js';
import { unsubscribeLink, verifyUnsubscribeMailto, verifyUnsubscribeToken } from '../../src/delivery/unsubscribe.js';
import { spaceKeys } from '../../src/redis/keys.js';
import { iso } from '../../src/clock.js';
import { MASTER_KEY } from '../helpers/domains.js';
import { withConfig } from '../helpers/mail.js';
import { mondayMorning, startService } from '../helpers/service.js';
import { streamEnvelopes } from '../helpers/events.js';

const clock = mondayMorning();
const svc = await startService({ clock, env: { MAILBOX_MASTER_KEY: MASTER_KEY } });
const rt = svc.rt;

const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);
/** `s` with its character at `i` changed, so it surely differs. */
const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
const get = (url: string) => fetch(url, { redirect: 'manual' });
const oneClick = (url: string) =>
  fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'List-Unsubscribe=One-Click',
  });
const events = async (spaceId: string) => streamEnvelopes(rt, spaceId);
const suppressions = (spaceId: string) => rt.redis.hgetall(spaceKeys(spaceId).suppressions);

t.test('tokens: what they carry, and nothing else verifies', async (t) => {
  const { spaceId } = await svc.space();
  const messageId = rt.ids.next('message');
  const link = unsubscribeLink(rt, spaceId, messageId, 'Marie.Curie@Exemple.FR', false);
  const token = tokenOf(link.url);
  t.equal(link.url, `${svc.url}/u/${token}`);
  t.same(verifyUnsubscribeToken(rt, token), { spaceId, messageId, recipient: 'marie.curie@exemple.fr', test: false });
  t.same(verifyUnsubscribeToken(rt, tokenOf(unsubscribeLink(rt, spaceId, messageId, 'a@b.fr', true).url))?.test, true);

  const [payload, mac] = token.split('.') as [string, string];
  const asTest = Buffer.from(`t${Buffer.from(payload, 'base64url').toString('utf8').slice(1)}`).toString('base64url');
  const otherKey = withConfig(rt, { masterKey: Buffer.alloc(32, 7) });
  for (const [why, forged] of [
    ['another mac', `${payload}.${flip(mac, 3)}`],
    ['another recipient', `${flip(payload, payload.length - 3)}.${mac}`],
    ['the test flag set by hand', `${asTest}.${mac}`],
    ['no mac', payload],
    ['extra part', `${token}.x`],
    ['garbage', 'bonjour'],
    ['too long', `${'a'.repeat(2000)}.${mac}`],
  ]) {
    t.equal(verifyUnsubscribeToken(rt, forged!), null, why!);
  }
  t.equal(verifyUnsubscribeToken(otherKey, token), null, 'another master key');
  t.throws(() => unsubscribeLink(withConfig(rt, { masterKey: null }), spaceId, messageId, 'a@b.fr', false), {
    code: 'encryption_unavailable',
  });
});

t.test('mailto addresses: 62 characters before the @ (RFC 5321: 64), any case, nothing else verifies', async (t) => {
  const { spaceId } = await svc.space();
  const messageId = rt.ids.next('message');
  const { mailto } = unsubscribeLink(rt, spaceId, messageId, 'Marie.Curie@Exemple.FR', false);
  const local = /^unsubscribe\+([0-9a-z]{50})@agents\.mailbox\.localhost$/.exec(mailto)?.[1];
  t.ok(local, mailto);
  t.equal(mailto.indexOf('@'), 62);
  t.same(verifyUnsubscribeMailto(rt, local!), { spaceId, messageId, test: false });
  t.same(
    verifyUnsubscribeMailto(rt, local!.toUpperCase()),
    { spaceId, messageId, test: false },
    'a relay that changed the case',
  );
  const testLocal = /\+([^@]+)@/.exec(unsubscribeLink(rt, spaceId, messageId, 'a@b.fr', true).mailto)![1]!;
  t.same(verifyUnsubscribeMailto(rt, testLocal), { spaceId, messageId, test: true }, "a test send's address says so");

  const other = rt.ids.next('message').slice(4);
  const swap = (i: number) => local!.slice(0, i) + (local![i] === 'a' ? 'b' : 'a') + local!.slice(i + 1);
  for (const [why, forged] of [
    ['another mac', swap(45)],
    ['another space', swap(3)],
    ['another message, same mac', local!.slice(0, 20) + other + local!.slice(40)],
    ['too short', local!.slice(0, 49)],
    ['too long', `${local}a`],
    ['not base32', `${local!.slice(0, 49)}u`],
    ['the first form', tokenOf(unsubscribeLink(rt, spaceId, messageId, 'a@b.fr', false).url)],
  ]) {
    t.equal(verifyUnsubscribeMailto(rt, forged!), null, why!);
  }
  t.equal(
    verifyUnsubscribeMailto(withConfig(rt, { masterKey: Buffer.alloc(32, 7) }), local!),
    null,
    'another master key',
  );
});

t.test('GET asks, POST (one-click) unsubscribes once: entry, journal, event', async (t) => {
  const { spaceId, apiKey } = await svc.space();
  const messageId = rt.ids.next('message');
  await rt.redis.hset(spaceKeys(spaceId).message(messageId), {
    inbox_id: 'inb_01m83pph0000000000aa',
    thread_id: 'thr_01m83pph0000000000aa',
    metadata: '{"crm":42}',
  });
  const { url } = unsubscribeLink(rt, spaceId, messageId, 'marie@exemple.fr', false);

  const page = await get(url);
  t.equal(page.status, 200);
  t.match(page.headers.get('content-type'), /^text\/html; charset=utf-8/);
  t.equal(page.headers.get('referrer-policy'), 'same-origin');
  const html = await page.text();
  t.match(html, '<html lang="fr">');
  t.match(html, 'Ne plus recevoir de messages de cet expéditeur');
  t.match(html, 'm***@exemple.fr', 'the address masked');
  t.match(
    html,
    /<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Me désabonner<\/button><\/form>/,
  );
  t.notMatch(html, '<script');
  t.same(await suppressions(spaceId), {}, 'GET writes nothing');

  const done = await oneClick(url);
  t.equal(done.status, 200, 'RFC 8058: 200, no redirect');
  t.match(await done.text(), /Vous êtes désabonné\(e\)[\s\S]*m\*\*\*@exemple\.fr/);

  const entry = JSON.parse((await suppressions(spaceId))['marie@exemple.fr']!);
  t.match(entry, {
    id: /^sup_[0-9a-z]{20}$/,
    value: 'marie@exemple.fr',
    kind: 'address',
    reason: 'unsubscribe',
    scope: 'space',
    source: messageId,
    created_at: iso(clock.now()),
  });
  t.same(await rt.redis.zrangebylex(spaceKeys(spaceId).suppressionIndex, '-', '+'), [`${entry.id} marie@exemple.fr`]);

  const [event] = await events(spaceId);
  t.match(event, {
    type: 'mail.contact.unsubscribed',
    account: { space_id: spaceId },
    subject: {
      person: { email: 'marie@exemple.fr', name: null },
      refs: { message_id: messageId, inbox_id: 'inb_01m83pph0000000000aa', thread_id: 'thr_01m83pph0000000000aa' },
    },
    data: { address: 'marie@exemple.fr', reason: 'unsubscribe', metadata: { crm: 42 } },
  });
  const journal = await svc.call(apiKey, 'list_events', { contact: 'marie@exemple.fr' });
  t.equal(journal.status, 200, JSON.stringify(journal.body));
  t.match(journal.body.events, [
    { kind: 'contact.unsubscribed', text: 'Désabonnement de « marie@exemple.fr »', actor: { kind: 'service' } },
  ]);

  clock.advance(60_000);
  t.equal((await oneClick(url)).status, 200, 'again: still fine for the person');
  t.equal((await events(spaceId)).length, 1, 'no second event');
  t.equal(JSON.parse((await suppressions(spaceId))['marie@exemple.fr']!).id, entry.id, 'the first entry stays');
  t.equal(
    (await svc.call(apiKey, 'list_events', { contact: 'marie@exemple.fr' })).body.events.length,
    1,
    'no second journal line',
  );

  const button = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'List-Unsubscribe=One-Click',
  });
  t.equal(button.status, 200, "the page's button takes the same path");
});

t.test("a test send's link unsubscribes nobody, and says so", async (t) => {
  const { spaceId } = await svc.space();
  const { url } = unsubscribeLink(rt, spaceId, rt.ids.next('message'), 'humain@exemple.fr', true);
  t.match(await (await get(url)).text(), 'envoi de test');
  const res = await oneClick(url);
  t.equal(res.status, 200);
  t.match(await res.text(), "Personne n'a été désabonné.");
  t.same(await suppressions(spaceId), {});
  t.same(await events(spaceId), []);
});

t.test('forged, altered or orphaned links: a French 404 page, nothing written', async (t) => {
  const { spaceId } = await svc.space();
  const { url } = unsubscribeLink(rt, spaceId, rt.ids.next('message'), 'marie@exemple.fr', false);
  // Not the last character: some of its bits are padding that decoding ignores.
  const forged = flip(url, url.length - 2);
  for (const res of [await get(forged), await oneClick(forged), await get(`${svc.url}/u/n-importe-quoi`)]) {
    t.equal(res.status, 404);
    t.match(res.headers.get('content-type'), /^text\/html/);
    t.match(await res.text(), "Ce lien de désabonnement n'est pas valable");
  }
  t.same(await suppressions(spaceId), {});

  const gone = unsubscribeLink(rt, 'spc_01m83pph0000000000zz', rt.ids.next('message'), 'marie@exemple.fr', false);
  t.equal((await oneClick(gone.url)).status, 404, 'a space that no longer exists');
  t.equal(await rt.redis.exists(spaceKeys('spc_01m83pph0000000000zz').suppressions), 0, 'nothing recreated for it');
});

t.test('keys: one per purpose; the embedded master key file', async (t) => {
  const master = Buffer.alloc(32, 1);
  t.equal(deriveKey(master, 'unsubscribe').length, 32);
  t.not(deriveKey(master, 'unsubscribe').toString('hex'), deriveKey(master, 'autre').toString('hex'));
  t.not(deriveKey(master, 'unsubscribe').toString('hex'), master.toString('hex'));
  t.equal(
    deriveKey(master, 'unsubscribe'),
    deriveKey(master, 'unsubscribe'),
    'derived once per master key and purpose',
  );
  t.not(
    deriveKey(Buffer.alloc(32, 2), 'unsubscribe').toString('hex'),
    deriveKey(master, 'unsubscribe').toString('hex'),
    'another master key, another key',
  );

  const dir = mkdtempSync(join(tmpdir(), 'mbx-key-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'var', 'master.key');
  const first = masterKeyFile(path);
  t.equal(first.length, 32);
  t.equal(statSync(path).mode & 0o777, 0o600);
  t.equal(Buffer.from(readFileSync(path, 'utf8').trim(), 'base64').toString('hex'), first.toString('hex'));
  t.equal(masterKeyFile(path).toString('hex'), first.toString('hex'), 'read back at the next start');
});
