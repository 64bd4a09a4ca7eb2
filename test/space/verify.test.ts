/** attach_human and verify: the code by e-mail (read from the outbox), and every code rule. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { spaceKeys } from '../../src/redis/keys.js';
import { lastCode, lastCodeMail } from '../helpers/codes.js';
import { journalIndexEntries, journalLines } from '../helpers/events.js';
import { mondayMorning, startService } from '../helpers/service.js';

const dataDir = mkdtempSync(join(tmpdir(), 'mbx-verify-'));
t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
const clock = mondayMorning();
const svc = await startService({ clock, env: { MAILBOX_DATA_DIR: dataDir } });
const MINUTE = 60_000;

/** A code that is not `code`. */
const wrong = (code: string): string => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

t.test('attach_human then verify: the space becomes verified and the human is attached', async (t) => {
  const { apiKey, spaceId } = await svc.space({ verified: false });
  const refused = await svc.call(apiKey, 'create_key', { name: 'robot' });
  t.equal(refused.body.error.code, 'space_unverified', 'verified-required tools refuse before');
  const res = await svc.call(apiKey, 'attach_human', { email: 'Nouvelle.Personne@Exemple.fr' });
  t.equal(res.status, 200);
  t.same(res.body, {
    human_email: 'n***@exemple.fr',
    code_sent: true,
    expires_at: new Date(clock.now() + 15 * MINUTE).toISOString(),
    notice: "Demandez le code à l'humain, puis appelez verify avec ce code.",
  });
  const { code, text } = (await lastCodeMail(svc, 'nouvelle.personne@exemple.fr'))!;
  t.match(code, /^\d{6}$/, 'the code went by e-mail');
  t.ok(text.includes(`${svc.url}/workspace/espace`), "the mail links to the space's page in the workspace");
  const stored = JSON.stringify(await svc.rt.redis.hgetall(spaceKeys(spaceId).code('verify')));
  t.notMatch(stored, code, 'the code is stored hashed, never as is');
  t.equal(
    await svc.rt.redis.hget(spaceKeys(spaceId).space, 'human_email'),
    'humain@exemple.fr',
    'nothing changes before verify',
  );
  const reader = await svc.key(apiKey, { name: 'lecteur', permissions: ['read'] }).catch(() => null);
  t.equal(reader, null, 'still unverified');
  const ok = await svc.call(apiKey, 'verify', { code });
  t.equal(ok.status, 200);
  t.same(ok.body, {
    verified: true,
    human_email: 'n***@exemple.fr',
    notice: 'Les envois, clés, boîtes, domaines et webhooks sont maintenant ouverts.',
  });
  t.equal(await svc.rt.redis.hget(spaceKeys(spaceId).space, 'human_email'), 'nouvelle.personne@exemple.fr');
  t.equal((await svc.call(apiKey, 'create_key', { name: 'robot' })).status, 200, 'verified-required tools open');
  const again = await svc.call(apiKey, 'verify', { code });
  t.equal(again.body.error.code, 'no_pending_code', 'a code serves once');
  const journal = await svc.call(apiKey, 'list_events', {});
  t.ok(journal.body.events.some((line: { kind: string }) => line.kind === 'space.verified'));
});

t.test('verify by any key; attach_human needs approve', async (t) => {
  const { apiKey } = await svc.space({ verified: true });
  const reader = await svc.key(apiKey, { name: 'lecteur', permissions: ['read'] });
  t.equal((await svc.call(reader.apiKey, 'attach_human', { email: 'x@exemple.fr' })).body.error.code, 'forbidden');
  t.equal((await svc.call(reader.apiKey, 'verify', { code: '123456' })).body.error.code, 'no_pending_code');
  t.equal((await svc.call(apiKey, 'attach_human', { email: 'pas-une-adresse' })).body.error.code, 'invalid_argument');
  t.equal((await svc.call(apiKey, 'verify', { code: '12ab56' })).body.error.code, 'invalid_argument');
});

t.test('invalid_code with attempts_left, then too_many_attempts voids the code', async (t) => {
  const { apiKey } = await svc.space({ verified: false });
  await svc.call(apiKey, 'attach_human', { email: 'essais@exemple.fr' });
  const code = (await lastCode(svc, 'essais@exemple.fr'))!;
  for (let i = 1; i <= 9; i++) {
    const res = await svc.call(apiKey, 'verify', { code: wrong(code) });
    t.equal(res.status, 422);
    t.equal(res.body.error.code, 'invalid_code');
    t.same(res.body.error.hint, { attempts_left: 10 - i });
  }
  t.match((await svc.call(apiKey, 'verify', { code: wrong(code) })).body.error.message, /Dix essais/);
  const tenth = await svc.call(apiKey, 'verify', { code });
  t.equal(tenth.body.error.code, 'no_pending_code', 'the right code no longer works: it is void');
});

t.test('the tenth failure answers too_many_attempts (429)', async (t) => {
  const { apiKey } = await svc.space({ verified: false });
  await svc.call(apiKey, 'attach_human', { email: 'dix@exemple.fr' });
  const code = (await lastCode(svc, 'dix@exemple.fr'))!;
  for (let i = 1; i <= 9; i++) await svc.call(apiKey, 'verify', { code: wrong(code) });
  const res = await svc.call(apiKey, 'verify', { code: wrong(code) });
  t.equal(res.status, 429);
  t.equal(res.body.error.code, 'too_many_attempts');
});

t.test('code_expired after 15 minutes (and so after 24 hours)', async (t) => {
  const { apiKey } = await svc.space({ verified: false });
  await svc.call(apiKey, 'attach_human', { email: 'tard@exemple.fr' });
  const code = (await lastCode(svc, 'tard@exemple.fr'))!;
  clock.advance(15 * MINUTE + 1);
  const res = await svc.call(apiKey, 'verify', { code });
  t.equal(res.status, 409);
  t.equal(res.body.error.code, 'code_expired');
  clock.advance(24 * 60 * MINUTE);
  t.equal((await svc.call(apiKey, 'verify', { code })).body.error.code, 'code_expired');
});

t.test('code_too_soon: 60 s between two codes, retry_after_seconds in the hint', async (t) => {
  const { apiKey } = await svc.space({ verified: false });
  t.equal((await svc.call(apiKey, 'attach_human', { email: 'vite@exemple.fr' })).status, 200);
  clock.advance(20_000);
  const res = await svc.call(apiKey, 'attach_human', { email: 'vite@exemple.fr' });
  t.equal(res.status, 429);
  t.equal(res.body.error.code, 'code_too_soon');
  t.same(res.body.error.hint, { retry_after_seconds: 40 });
  t.equal(res.headers.get('retry-after'), '40');
  clock.advance(40_000);
  t.equal((await svc.call(apiKey, 'attach_human', { email: 'vite@exemple.fr' })).status, 200);
});

t.test('code_limit: five codes in 24 h, for all purposes together; a new code voids the previous one', async (t) => {
  const { apiKey } = await svc.space({ verified: false });
  const codes: string[] = [];
  for (let i = 0; i < 4; i++) {
    t.equal((await svc.call(apiKey, 'attach_human', { email: 'limite@exemple.fr' })).status, 200);
    codes.push((await lastCode(svc, 'limite@exemple.fr'))!);
    clock.advance(MINUTE);
  }
  t.equal((await svc.call(apiKey, 'close_space', {})).status, 200, 'a closure code counts too');
  clock.advance(MINUTE);
  const res = await svc.call(apiKey, 'attach_human', { email: 'limite@exemple.fr' });
  t.equal(res.status, 429);
  t.equal(res.body.error.code, 'code_limit');
  if (codes[0] !== codes[3])
    t.equal(
      (await svc.call(apiKey, 'verify', { code: codes[0] })).body.error.code,
      'invalid_code',
      'an older code is void',
    );
  t.equal((await svc.call(apiKey, 'verify', { code: codes[3] })).status, 200, 'the last one holds');
  clock.advance(24 * 60 * MINUTE);
  t.equal((await svc.call(apiKey, 'attach_human', { email: 'limite@exemple.fr' })).status, 200, 'the window slides');
});

t.test('code_not_sent: the e-mail cannot leave, nothing changes', async (t) => {
  const broken = await startService({ clock, env: { OUTBOUND: 'smtp://127.0.0.1:9', MAILBOX_DATA_DIR: dataDir } });
  const { apiKey, spaceId } = await broken.space({ verified: false });
  const res = await broken.call(apiKey, 'attach_human', { email: 'perdu@exemple.fr' });
  t.equal(res.status, 502);
  t.equal(res.body.error.code, 'code_not_sent');
  t.equal(await svc.rt.redis.exists(spaceKeys(spaceId).code('verify')), 0, 'no code pending');
  t.equal(await svc.rt.redis.zcard(spaceKeys(spaceId).codeSends), 0, 'the send does not count');
  const kinds = (await journalLines(svc.rt, spaceId)).map((line) => line.kind);
  t.notOk(kinds.includes('code.sent'), 'nor its journal line');
  // Every index entry (a prefix, then a line id's 20-character body) still names a stored line.
  const stored = new Set(await svc.rt.redis.hkeys(spaceKeys(spaceId).journal));
  const index = await journalIndexEntries(svc.rt, spaceId);
  t.same(
    index.filter((member) => !stored.has(`log_${member.slice(-20)}`)),
    [],
    'nor its index entries',
  );
  t.equal((await broken.call(apiKey, 'verify', { code: '123456' })).body.error.code, 'no_pending_code');
});

t.test('concurrent attach_human: one code leaves, the others are code_too_soon', async (t) => {
  const { apiKey } = await svc.space({ verified: false });
  const answers = await Promise.all(
    Array.from({ length: 8 }, () => svc.call(apiKey, 'attach_human', { email: 'course@exemple.fr' })),
  );
  t.equal(answers.filter((r) => r.status === 200).length, 1);
  t.ok(answers.filter((r) => r.status !== 200).every((r) => r.body.error.code === 'code_too_soon'));
});
