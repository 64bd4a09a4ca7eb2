/**
 * The human's sign-in against strangers (actors/signin-codes.ts): anyone who knows the address can ask
 * codes for it, from their own budgets only, so the human is never locked out of the tools (close_space,
 * attach_human) nor of a browser they signed in with; a stranger's code never voids the human's; and the
 * pages answer the same, and do the same Redis work, for a space's human and for an unknown address.
 * Client addresses come from X-Forwarded-For, as behind a proxy (CLIENT_ADDRESS_HEADER).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import t from 'tap';
import { signInMailsSent } from '../../actors/signin-codes.js';
import { codesSent, lastCode } from '../helpers/codes.js';
import { clusterMode, testRedis } from '../helpers/redis.js';
import { mondayMorning, startService } from '../helpers/service.js';
import { cookiePair, fieldOf, postForm, type PagePost } from '../helpers/signin.js';

const dataDir = mkdtempSync(join(tmpdir(), 'mbx-signin-strangers-'));
t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
const clock = mondayMorning();
const svc = await startService({ clock, env: { MAILBOX_DATA_DIR: dataDir, CLIENT_ADDRESS_HEADER: 'x-forwarded-for' } });
const MINUTE = 60_000;
let people = 0;
const person = (): string => `humain${++people}-${Date.now()}@exemple.fr`;
const from = (address: string, cookie?: string): Record<string, string> => ({
  'x-forwarded-for': address,
  ...(cookie ? { cookie } : {}),
});

/** The sign-in's two steps from a client address (and a browser's cookie): the final answer. */
async function signInFrom(
  email: string,
  address: string,
  cookie?: string,
): Promise<{ asked: PagePost; done: PagePost | null }> {
  const asked = await postForm(svc, '/signin', { email }, from(address, cookie));
  if (asked.status !== 200) return { asked, done: null };
  const code = (await lastCode(svc, email))!;
  const device = cookie ?? cookiePair(asked.setCookie);
  const done = await postForm(
    svc,
    '/signin/code',
    { email, attempt: fieldOf(asked.text, 'attempt'), code },
    from(address, device),
  );
  return { asked, done };
}

t.test(
  "five anonymous requests spend a stranger's budget, never the human's (sign-in and the tools go on)",
  async (t) => {
    const email = person();
    const { apiKey } = await svc.space({ human: email });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await postForm(svc, '/signin', { email }, from('203.0.113.7'))).status);
      clock.advance(61_000);
    }
    t.same(statuses, [200, 200, 200, 200, 200, 429], 'five codes for that stranger, then refused');
    const refused = await postForm(svc, '/signin', { email }, from('203.0.113.7'));
    t.match(refused.text, 'Trop de codes de connexion');
    const { done } = await signInFrom(email, '198.51.100.20');
    t.equal(done?.status, 303, 'the human signs in from their own address');
    const close = await svc.call(apiKey, 'close_space', {});
    t.equal(close.status, 200);
    t.equal(close.body.code_sent, true, "close_space's code leaves: the space's five codes are untouched");
    clock.advance(2 * MINUTE);
    t.equal((await svc.call(apiKey, 'attach_human', { email })).status, 200, 'and attach_human');
  },
);

t.test(
  'strangers together get twenty codes a day for an address; a browser that signed in before is never stopped',
  async (t) => {
    const email = person();
    const { apiKey } = await svc.space({ human: email });
    const first = await signInFrom(email, '198.51.100.30');
    t.equal(first.done?.status, 303);
    const device = cookiePair(first.asked.setCookie);
    const strangers: number[] = [];
    for (let i = 1; i <= 20; i++)
      strangers.push((await postForm(svc, '/signin', { email }, from(`203.0.113.${i}`))).status);
    // The human's first code came from a browser not yet known: one of the twenty.
    t.same(
      strangers,
      [...Array(19).fill(200), 429],
      'twenty codes to strangers, then none: at most 200 guesses a day at its codes',
    );
    t.equal(
      (await postForm(svc, '/signin', { email }, from('192.0.2.99'))).status,
      429,
      'a browser never signed in waits too',
    );
    const known = await signInFrom(email, '192.0.2.99', device);
    t.equal(known.done?.status, 303, 'the browser that signed in before gets its code, from any address');
    t.equal((await svc.call(apiKey, 'close_space', {})).body.code_sent, true, 'and the tools are untouched');
  },
);

t.test("a stranger's code never voids the human's", async (t) => {
  const email = person();
  await svc.space({ human: email });
  const human = await postForm(svc, '/signin', { email }, from('198.51.100.40'));
  await postForm(svc, '/signin', { email }, from('203.0.113.40'));
  const [humanCode, strangerCode] = await codesSent(svc, email);
  t.not(humanCode, strangerCode, 'two codes, each for its own attempt');
  const wrongAttempt = await postForm(
    svc,
    '/signin/code',
    { email, attempt: fieldOf(human.text, 'attempt'), code: strangerCode! },
    from('198.51.100.40'),
  );
  t.equal(wrongAttempt.status, 422, "the stranger's code is no code of the human's attempt");
  const done = await postForm(
    svc,
    '/signin/code',
    { email, attempt: fieldOf(human.text, 'attempt'), code: humanCode! },
    from('198.51.100.40'),
  );
  t.equal(done.status, 303, "the human's code still works");
});

/** A page with the address-specific parts blanked: the masked address, the address and the attempt. */
const shape = (post: PagePost, email: string): { status: number; text: string } => ({
  status: post.status,
  text: post.text
    .replaceAll(email, 'ADRESSE')
    .replace(/<strong>[^<]*\*[^<]*<\/strong>/g, '<strong>MASQUEE</strong>')
    .replace(/name="attempt" value="[^"]*"/g, 'name="attempt" value="ESSAI"'),
});

t.test("the pages answer the same for a space's human and for an unknown address", async (t) => {
  const human = person();
  await svc.space({ human });
  const unknown = person();
  const answers = async (email: string) => {
    const asked = await postForm(svc, '/signin', { email }, from('198.51.100.50'));
    const again = await postForm(svc, '/signin', { email }, from('198.51.100.50'));
    const wrong = await postForm(
      svc,
      '/signin/code',
      { email, attempt: fieldOf(asked.text, 'attempt'), code: '000000' },
      from('198.51.100.50'),
    );
    const stale = await postForm(
      svc,
      '/signin/code',
      { email, attempt: 'inconnue', code: '000000' },
      from('198.51.100.50'),
    );
    return [asked, again, wrong, stale].map((post) => shape(post, email));
  };
  const [ofHuman, ofUnknown] = [await answers(human), await answers(unknown)];
  t.same(
    ofHuman.map((answer) => answer.status),
    [200, 429, 422, 409],
  );
  t.same(ofUnknown, ofHuman, 'status and body, step by step');
  t.ok(await lastCode(svc, human), 'the human got a code');
  t.equal(await lastCode(svc, unknown), null, 'the unknown address none');
});

t.test(
  "asking a code does the same Redis work for a space's human and for an unknown address",
  { skip: clusterMode() && 'MONITOR watches one node' },
  async (t) => {
    const human = person();
    await svc.space({ human });
    const unknown = person();
    // Every script loaded first: a script Redis does not know yet is sent twice (EVALSHA, then EVAL).
    await postForm(svc, '/signin', { email: person() }, from('198.51.100.60'));
    await signInMailsSent();
    const monitor = await ((await testRedis()) as Redis).monitor();
    t.teardown(() => monitor.disconnect());
    let seen: string[][] = [];
    monitor.on('monitor', (_time: string, args: string[]) => void seen.push(args));
    /** What one request made Redis do, its e-mail included: each command and the keys it named, ids and hashes blanked. */
    const workOf = async (email: string): Promise<string[]> => {
      seen = [];
      t.equal((await postForm(svc, '/signin', { email }, from('198.51.100.60'))).status, 200);
      await signInMailsSent();
      // MONITOR streams behind the commands: a last command of ours marks the end.
      await svc.rt.redis.echo('fin');
      while (!seen.some((args) => args[0]?.toLowerCase() === 'echo'))
        await new Promise((resolve) => setImmediate(resolve));
      return seen
        .filter((args) => args[0]?.toLowerCase() !== 'echo')
        .map(([command, ...args]) => {
          const keys = command!.toLowerCase() === 'evalsha' ? args.slice(2, 2 + Number(args[1])) : args.slice(0, 1);
          return [command!.toLowerCase(), ...keys]
            .join(' ')
            .replace(/[0-9a-f]{64}/g, 'H')
            .replace(/spc_[0-9a-z]+/g, 'SPC');
        });
    };
    const ofHuman = await workOf(human);
    const ofUnknown = await workOf(unknown);
    t.notOk(
      ofUnknown.some((line) => line.includes('{SPC}')),
      'an unknown address: no space touched',
    );
    const ownWork = ofHuman
      .map((line, i) => (line.includes('{hum:') ? i : -1))
      .reduce((last, i) => Math.max(last, i), -1);
    t.ok(ownWork > 0);
    t.ok(
      ofHuman.slice(0, ownWork + 1).every((line) => !line.includes('{SPC}')),
      "the human's space is read only after the answer's work, for the e-mail",
    );
    t.ok(
      ofHuman.slice(ownWork + 1).some((line) => line.includes('{SPC}')),
      'then, for the e-mail',
    );
    t.same(
      ofHuman.filter((line) => !line.includes('{SPC}')),
      ofUnknown,
      'the same commands on the same keys, in the same order',
    );
  },
);
