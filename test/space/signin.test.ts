/** The human's sign-in (actors/human-session.ts, src/http/signin.ts): address, code, session cookie, and its refusals. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { humanAccess, readSession } from '../../actors/human-session.js';
import { runCli } from '../../src/cli/main.js';
import { globalKeys, spaceKeys } from '../../src/redis/keys.js';
import { testRedisTarget } from '../helpers/redis.js';
import { sha256Hex } from '../../src/secrets.js';
import { callTool } from '../../src/tools/dispatch.js';
import { lastCode, lastCodeMail } from '../helpers/codes.js';
import { journalLines } from '../helpers/events.js';
import { mondayMorning, startService } from '../helpers/service.js';
import { cookiePair, fieldOf, postForm, signIn } from '../helpers/signin.js';

const dataDir = mkdtempSync(join(tmpdir(), 'mbx-signin-'));
t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
const clock = mondayMorning();
const svc = await startService({ clock, env: { MAILBOX_DATA_DIR: dataDir } });
const MINUTE = 60_000;
let people = 0;
const person = (): string => `personne${++people}-${Date.now()}@exemple.fr`;
const page = (cookie: string, path = '/signin') =>
  fetch(`${svc.url}${path}`, { headers: { cookie }, redirect: 'manual' });

t.test("address, code, cookie: the session is the space human's, stored hashed, and ends at sign-out", async (t) => {
  const email = person();
  const { spaceId } = await svc.space({ human: email, name: 'Atelier' });
  const asked = await postForm(svc, '/signin', { email: email.toUpperCase(), next: '/workspace' });
  t.equal(asked.status, 200);
  t.match(asked.text, 'Code de connexion');
  t.match(
    asked.setCookie,
    /^mbx_device=[0-9A-Za-z]{32}; Path=\/signin; HttpOnly; SameSite=Strict; Max-Age=15552000$/,
    'the browser gets a device cookie',
  );
  const { code, text } = (await lastCodeMail(svc, email))!;
  t.match(code, /^\d{6}$/, 'the code went to the human');
  t.ok(text.includes(`${svc.url}/workspace\n`), 'the mail links to the workspace');
  const done = await postForm(
    svc,
    '/signin/code',
    { email, attempt: fieldOf(asked.text, 'attempt'), code: code, next: '/workspace' },
    { cookie: cookiePair(asked.setCookie) },
  );
  t.equal(done.status, 303);
  t.equal(done.location, '/workspace', 'back where the visitor was going');
  t.match(
    done.setCookie,
    /^mbx_session=mbs_[0-9a-z]+_[0-9A-Za-z]{32}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=43200$/,
  );
  const secret = cookiePair(done.setCookie).split('=')[1]!;
  const stored = await svc.rt.redis.hgetall(spaceKeys(spaceId).session(sha256Hex(secret)));
  t.equal(stored.email, email, 'stored under the hash of its secret');
  t.notMatch(JSON.stringify(stored), secret);
  const device = cookiePair(asked.setCookie).split('=')[1]!;
  t.ok(
    await svc.rt.redis.zscore(globalKeys.humanDevices(sha256Hex(email)), sha256Hex(device)),
    'the browser is remembered, by the hash of its cookie',
  );
  const home = await page(cookiePair(done.setCookie));
  t.match(await home.text(), 'Atelier', 'the sign-in page knows the human');
  t.equal(home.headers.get('x-frame-options'), 'DENY');
  t.match(home.headers.get('content-security-policy'), "frame-ancestors 'none'");
  const journal = await journalLines(svc.rt, spaceId);
  t.ok(
    journal.some((line) => line.kind === 'code.sent' && line.actor.kind === 'human'),
    'the code e-mail journaled',
  );
  t.ok(
    journal.some((line) => line.kind === 'human.signed_in' && line.actor.kind === 'human'),
    'journaled as the human',
  );
  const out = await postForm(svc, '/signout', {}, { cookie: cookiePair(done.setCookie) });
  t.equal(out.status, 303);
  t.match(out.setCookie, /Max-Age=0/);
  t.equal(await readSession(svc.rt, secret), null, 'signed out');
});

t.test('a session acts as the human, journaled as such', async (t) => {
  const email = person();
  const { spaceId } = await svc.space({ human: email });
  const cookie = await signIn(svc, email);
  const signedIn = (await readSession(svc.rt, cookie.split('=')[1]!))!;
  t.equal(signedIn.space.id, spaceId);
  const { output } = await callTool(svc.rt, humanAccess(signedIn.session, signedIn.space), 'create_inbox', {
    username: `h-${spaceId.slice(-8)}`,
    display_name: 'Humain',
  });
  t.ok(output, 'the human may act');
  const lines = await journalLines(svc.rt, spaceId);
  t.same(lines.find((line) => line.kind === 'inbox.created')?.actor, {
    kind: 'human',
    name: humanAccess(signedIn.session, signedIn.space).key.name,
    key_id: null,
  });
});

t.test('an address nobody is the human of gets the same page and no mail; its code is wrong', async (t) => {
  const email = person();
  const asked = await postForm(svc, '/signin', { email });
  t.equal(asked.status, 200);
  t.match(asked.text, 'Code de connexion');
  t.equal(await lastCode(svc, email), null, 'no mail');
  const done = await postForm(svc, '/signin/code', { email, attempt: fieldOf(asked.text, 'attempt'), code: '123456' });
  t.equal(done.status, 422);
  t.match(done.text, 'Code erroné ; encore 9 essais');
});

t.test(
  'the human of several spaces chooses the space once the code is right; a space named at first is kept',
  async (t) => {
    const email = person();
    const first = await svc.space({ human: email, name: 'Un' });
    const second = await svc.space({ human: email, name: 'Deux' });
    const asked = await postForm(svc, '/signin', { email });
    t.notMatch(asked.text, 'plusieurs', 'the first page tells nothing');
    const code = (await lastCode(svc, email))!;
    t.ok(code, 'one code, for both spaces');
    const attempt = fieldOf(asked.text, 'attempt');
    const wrong = await postForm(svc, '/signin/code', {
      email,
      attempt,
      code: String((Number(code) + 1) % 1_000_000).padStart(6, '0'),
    });
    t.equal(wrong.status, 422, 'a wrong code is wrong, no list');
    const choice = await postForm(svc, '/signin/code', { email, attempt, code });
    t.equal(choice.status, 200);
    t.match(choice.text, 'plusieurs espaces');
    t.match(choice.text, first.spaceId);
    t.match(choice.text, second.spaceId);
    const done = await postForm(svc, '/signin/code', { email, attempt, code, space: second.spaceId });
    t.equal(done.status, 303, 'the code was kept for the choice');
    t.equal((await readSession(svc.rt, cookiePair(done.setCookie).split('=')[1]!))!.space.id, second.spaceId);
    const other = await svc.space({ human: person() });
    clock.advance(2 * MINUTE);
    const foreign = await postForm(svc, '/signin', { email, space: other.spaceId });
    t.match(foreign.text, 'Code de connexion', 'the same answer as for an unknown address');
    t.equal(await lastCode(svc, email), code, 'and no new code');
    clock.advance(2 * MINUTE);
    const cookie = await signIn(svc, email, first.spaceId);
    t.equal((await readSession(svc.rt, cookie.split('=')[1]!))!.space.id, first.spaceId, 'named at first: no choice');
    t.equal((await postForm(svc, '/signin', { email, space: 'pas-un-id' })).status, 400);
  },
);

t.test('the code rules: wrong code, 10 attempts, expiry, code_too_soon', async (t) => {
  const email = person();
  await svc.space({ human: email });
  const asked = await postForm(svc, '/signin', { email });
  const attempt = fieldOf(asked.text, 'attempt');
  const code = (await lastCode(svc, email))!;
  const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
  const first = await postForm(svc, '/signin/code', { email, attempt, code: wrong });
  t.equal(first.status, 422);
  t.match(first.text, 'encore 9 essais');
  const again = await postForm(svc, '/signin', { email });
  t.equal(again.status, 429, 'code_too_soon within 60 s');
  t.match(again.text, 'Réessayez dans 60 s');
  for (let i = 0; i < 8; i++) await postForm(svc, '/signin/code', { email, attempt, code: wrong });
  const last = await postForm(svc, '/signin/code', { email, attempt, code: wrong });
  t.equal(last.status, 429);
  t.match(last.text, 'Dix essais');
  t.equal(
    (await postForm(svc, '/signin/code', { email, attempt, code })).status,
    409,
    'the code is void after 10 failures (no_pending_code)',
  );
  clock.advance(2 * MINUTE);
  const later = await postForm(svc, '/signin', { email });
  const late = (await lastCode(svc, email))!;
  clock.advance(16 * MINUTE);
  const expired = await postForm(svc, '/signin/code', { email, attempt: fieldOf(later.text, 'attempt'), code: late });
  t.equal(expired.status, 409);
  t.match(expired.text, 'expiré');
  t.equal(
    (await postForm(svc, '/signin/code', { email, attempt: 'inconnue', code: late })).status,
    409,
    'an unknown attempt: no_pending_code',
  );
});

t.test('a session ends when it expires or when the human is replaced', async (t) => {
  const email = person();
  const { spaceId, apiKey } = await svc.space({ human: email });
  const cookie = await signIn(svc, email);
  const secret = cookie.split('=')[1]!;
  t.ok(await readSession(svc.rt, secret));
  await svc.rt.redis.hset(spaceKeys(spaceId).space, 'human_email', 'autre@exemple.fr');
  t.equal(await readSession(svc.rt, secret), null, 'another human: the old one is signed out');
  await svc.rt.redis.hset(spaceKeys(spaceId).space, 'human_email', email);
  clock.advance(12 * 60 * MINUTE);
  t.equal(await readSession(svc.rt, secret), null, 'expired after 12 h');
  t.ok(apiKey);
});

t.test('forms from another site are refused; next never leaves the service', async (t) => {
  const email = person();
  await svc.space({ human: email });
  const foreign = await postForm(svc, '/signin', { email }, { origin: 'https://ailleurs.example' });
  t.equal(foreign.status, 403);
  t.equal(await lastCode(svc, email), null);
  const cookie = await signIn(svc, email);
  // A browser drops a tab or line break inside a URL: "/<tab>/ailleurs.example" is "//ailleurs.example".
  for (const next of [
    'https://ailleurs.example/',
    '//ailleurs.example/x',
    '/\\ailleurs.example',
    '/\t/ailleurs.example',
    '/\n/ailleurs.example',
    '/x\r\nSet-Cookie: mbx_session=x',
  ]) {
    const res = await page(cookie, `/signin?next=${encodeURIComponent(next)}`);
    t.equal(res.headers.get('location'), '/signin', `${JSON.stringify(next)} is not followed`);
    t.notOk(res.headers.get('set-cookie'), 'and no header is written from it');
  }
  const local = await page(cookie, `/signin?next=${encodeURIComponent('/workspace?page=jour')}`);
  t.equal(local.headers.get('location'), '/workspace?page=jour');
});

t.test('a device cookie the service could not have set is replaced, never echoed', async (t) => {
  const email = person();
  const asked = await postForm(svc, '/signin', { email }, { cookie: 'mbx_device=a,b c' });
  t.match(asked.setCookie, /^mbx_device=[0-9A-Za-z]{32};/);
  const kept = await postForm(svc, '/signin', { email: person() }, { cookie: cookiePair(asked.setCookie) });
  t.equal(cookiePair(kept.setCookie), cookiePair(asked.setCookie), 'its own is kept');
});

t.test('the cookie is Secure when BASE_URL is https', async (t) => {
  const email = person();
  await svc.space({ human: email });
  const base = svc.rt.config.baseUrl;
  svc.rt.config.baseUrl = 'https://mailbox.example';
  t.teardown(() => {
    svc.rt.config.baseUrl = base;
  });
  const asked = await postForm(svc, '/signin', { email });
  t.match(asked.setCookie, /^mbx_device=.*; Secure$/);
  const done = await postForm(svc, '/signin/code', {
    email,
    attempt: fieldOf(asked.text, 'attempt'),
    code: (await lastCode(svc, email))!,
  });
  t.match(done.setCookie, /; HttpOnly; SameSite=Strict; Max-Age=\d+; Secure$/);
});

const target = await testRedisTarget();
t.test(
  'mailbox admin index-humans: spaces made before the index can sign in',
  { skip: !target.url && 'the CLI opens one node' },
  async (t) => {
    const email = person();
    await svc.space({ human: email });
    await svc.rt.redis.del(globalKeys.human(sha256Hex(email)));
    await postForm(svc, '/signin', { email });
    t.equal(await lastCode(svc, email), null, 'not indexed: no code');
    const out: string[] = [];
    const io = {
      env: { REDIS_URL: target.url ?? undefined, LOG_LEVEL: 'silent' },
      out: (l: string) => out.push(l),
      err: () => {},
    };
    t.equal(await runCli(['admin', 'index-humans'], io), 0);
    t.ok(JSON.parse(out[0]!).indexed >= 1);
    clock.advance(2 * MINUTE);
    t.ok(await signIn(svc, email), 'indexed: the human signs in');
  },
);
