/**
 * The user's commands (src/cli/user.ts) against a service in-process: `mailbox call` prints the answer
 * or, on an error body, the French message with a non-zero exit; `mailbox tail` follows event_feed.
 * Also the start's warning about an http:// BASE_URL on a public host (src/cli/start-checks.ts).
 */
import { createServer, type AddressInfo } from 'node:net';
import t from 'tap';
import { resumeInbox, suspendInbox } from '../../actors/inbox.js';
import { warnAtStart } from '../../src/cli/start-checks.js';
import { loadConfig } from '../../src/config.js';
import type { Logger } from '../../src/log.js';
import { runCli } from '../../src/cli/main.js';
import { runCollecting } from '../helpers/cli.js';
import { startService } from '../helpers/service.js';

const svc = await startService();

async function cli(env: Record<string, string>, argv: string[], signal?: AbortSignal) {
  const { code, lines, err } = await runCollecting(argv, { MAILBOX_URL: svc.url, ...env }, signal);
  return { code, out: lines, err };
}

t.test('call: the JSON answer on stdout; an error body: its French message on stderr, exit 1', async (t) => {
  const { apiKey, spaceId } = await svc.space();
  const settings = await cli({ MAILBOX_KEY: apiKey }, ['call', 'get_settings']);
  t.equal(settings.code, 0, settings.err);
  t.equal(JSON.parse(settings.out[0]!).space.id, spaceId);

  const created = await cli({ MAILBOX_KEY: apiKey }, [
    'call',
    'create_inbox',
    '{"username":"appel","display_name":"Appel"}',
  ]);
  t.equal(created.code, 0, created.err);
  t.match(JSON.parse(created.out[0]!), { address: /^appel@/ });

  const refused = await cli({ MAILBOX_KEY: apiKey }, [
    'call',
    'get_thread',
    '{"thread_id":"thr_00000000000000000000"}',
  ]);
  t.equal(refused.code, 1);
  t.same(refused.out, []);
  t.match(refused.err, /^not_found: /);

  const anonymous = await cli({}, ['call', 'get_settings']);
  t.equal(anonymous.code, 1);
  t.match(anonymous.err, /^unauthorized: /);

  t.equal((await cli({}, ['call', 'get_settings', '{pas du json'])).code, 2);
  t.equal((await cli({}, ['call'])).code, 2);
});

t.test('no service at MAILBOX_URL: the URL that failed and how to start one, exit 1', async (t) => {
  // A port nothing listens on: taken, then let go.
  const closed = await new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
  for (const argv of [['call', 'get_settings'], ['tail']]) {
    const { code, out, err } = await cli({ MAILBOX_URL: `http://127.0.0.1:${closed}/`, MAILBOX_KEY: 'mbx_x' }, argv);
    t.equal(code, 1, argv.join(' '));
    t.same(out, []);
    const tool = argv[0] === 'call' ? 'get_settings' : 'event_feed';
    t.match(err, `cannot reach the service at http://127.0.0.1:${closed}/v1/${tool} (ECONNREFUSED)`);
    t.match(
      err,
      /Start it \(`npm run dev` to try it, `npm start`, or `mailbox serve`\), or set MAILBOX_URL to its address/,
    );
  }
  const malformed = await cli({ MAILBOX_URL: '127.0.0.1:8080' }, ['call', 'get_settings']);
  t.equal(malformed.code, 1);
  t.match(malformed.err, 'MAILBOX_URL "127.0.0.1:8080" is not an http(s) URL');
});

t.test('tail: one envelope per line, from a cursor it keeps; --after starts from a given one', async (t) => {
  const { apiKey, spaceId } = await svc.space();
  const inbox = await svc.call(apiKey, 'create_inbox', { username: 'suivi', display_name: 'Suivi' });
  // One real event each: the circuit breaker suspends the inbox (the operator's resume writes none).
  const emit = async (reason: string) => {
    await suspendInbox(svc.rt, spaceId, inbox.body.id, reason);
    await resumeInbox(svc.rt, spaceId, inbox.body.id);
  };
  await emit('premier');
  const first = await svc.call(apiKey, 'event_feed', {});
  t.equal(first.body.events.length, 1);

  const lines: string[] = [];
  const stop = new AbortController();
  const running = runCli(['tail'], {
    env: { MAILBOX_URL: svc.url, MAILBOX_KEY: apiKey },
    out: (line) => lines.push(line),
    err: (line) => t.fail(line),
    signal: stop.signal,
  });
  const waitFor = async (count: number) => {
    for (let i = 0; lines.length < count && i < 200; i++) await new Promise((r) => setTimeout(r, 20));
  };
  await waitFor(1);
  t.equal(JSON.parse(lines[0]!).id, first.body.events[0].id, 'the events so far');
  await emit('second');
  await waitFor(2);
  t.match(JSON.parse(lines[1]!), { type: 'mail.inbox.suspended', data: { reason: 'second' } }, 'then the new one');
  await new Promise((r) => setTimeout(r, 1200));
  t.equal(lines.length, 2, 'each once');
  stop.abort();
  t.equal(await running, 0);

  const later = await cli(
    { MAILBOX_KEY: apiKey },
    ['tail', '--after', first.body.next_cursor],
    AbortSignal.timeout(1500),
  );
  t.equal(later.code, 0);
  t.match(
    later.out.map((line) => JSON.parse(line)),
    [{ data: { reason: 'second' } }],
    'only what came after the cursor',
  );

  const refused = await cli({ MAILBOX_KEY: apiKey }, ['tail', '--after', 'pas-un-curseur']);
  t.equal(refused.code, 1);
  t.match(refused.err, /^invalid_argument: /);
});

t.test('an http:// BASE_URL on a public host warns that unsubscribe links must be https', async (t) => {
  const warnings = (baseUrl: string) => {
    const lines: string[] = [];
    const log: Logger = { debug: () => {}, info: () => {}, error: () => {}, warn: (msg) => lines.push(msg) };
    warnAtStart(loadConfig({ BASE_URL: baseUrl }), log);
    return lines;
  };
  t.match(warnings('http://mail.exemple.fr'), [/unsubscribe links must be https \(Gmail and Yahoo/]);
  t.match(warnings('http://203.0.113.7:8080'), [/https/]);
  for (const quiet of [
    'https://mail.exemple.fr',
    'http://localhost:8080',
    'http://mailbox.localhost',
    'http://127.0.0.1:8080',
    'http://[::1]:8080',
  ]) {
    t.same(warnings(quiet), [], quiet);
  }
});

t.test('a start without prlimit warns that PDF attachments get no text', async (t) => {
  const path = process.env.PATH;
  t.teardown(() => void (process.env.PATH = path));
  process.env.PATH = '/nonexistent';
  const lines: string[] = [];
  warnAtStart(loadConfig({}), { debug: () => {}, info: () => {}, error: () => {}, warn: (msg) => lines.push(msg) });
  t.match(lines, [/prlimit \(util-linux\) is not installed: PDF attachments get no text/]);
});
