/**
 * README's quick start, as a newcomer follows it: `npm run dev` (here `mailbox serve --dev` from the
 * sources, in its own process, on a scratch data dir and free ports), then the commands it prints, run
 * as they are by a shell: the test mail lands in the outbox, the mail sent in is read with get_thread,
 * and the first campaign's two messages land in the outbox, from the inbox on the dev space's own
 * domain (verified through the dev mode's DNS), signed by it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { simpleParser } from 'mailparser';
import t from 'tap';
import { runCli } from '../../src/cli/main.js';
import { startDns } from '../helpers/dns.js';
import { CHILD_EXEC_ARGV } from '../helpers/child.js';

// Five starts of the dev mode, each its own process with its own redis-server.
t.setTimeout(240_000);

const child = fileURLToPath(new URL('../helpers/mailbox-child.ts', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'mailbox-dev-'));
const dns = await startDns();
t.teardown(async () => {
  await dns.close();
  rmSync(dataDir, { recursive: true, force: true });
});
// Free ports; its DNS questions (the inbound mail's SPF and DMARC) go to a local server, not the network.
const env: NodeJS.ProcessEnv = {
  ...process.env,
  MAILBOX_DATA_DIR: dataDir,
  PORT: '0',
  SMTP_PORT: '0',
  LOG_LEVEL: 'warn',
  DNS_SERVERS: dns.address,
};
delete env.REDIS_URL;
delete env.REDIS_CLUSTER_NODES;

interface Started {
  process: ChildProcess;
  out: string;
  stop(): Promise<void>;
}

/** Starts the dev mode and resolves once its banner is printed (the service answers by then). */
async function startDev(...extra: string[]): Promise<Started> {
  const proc = spawn(process.execPath, [...CHILD_EXEC_ARGV, child, 'serve', '--dev', ...extra], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    proc.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (/mailbox tail|mints a new one/.test(out)) resolve();
    });
    proc.once('exit', (code) => reject(new Error(`serve --dev exited (${code}): ${err}`)));
  });
  return {
    process: proc,
    out,
    async stop() {
      proc.kill('SIGTERM');
      await exited;
    },
  };
}

/** The printed commands: the indented lines (continuations are indented further), one shell script. */
const printedCommands = (out: string): string =>
  out
    .split('\n')
    .filter((line) => line.startsWith('    '))
    .join('\n');

const bash = (script: string) =>
  spawnSync('bash', ['-euo', 'pipefail', '-c', script], { encoding: 'utf8', timeout: 30_000 });

async function eventually<T>(probe: () => T | null, what: string): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const found = probe();
    if (found) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`never came: ${what}`);
}

/** The `.eml` files of the outbox once there are `count`: name -> content. */
async function outboxFiles(count: number): Promise<Map<string, string>> {
  const outbox = join(dataDir, 'outbox');
  const names = await eventually(() => {
    try {
      const found = readdirSync(outbox).filter((name) => name.endsWith('.eml'));
      return found.length >= count ? found : null;
    } catch {
      return null;
    }
  }, `${count} messages in the outbox`);
  return new Map(names.map((name) => [name, readFileSync(join(outbox, name), 'utf8')]));
}

t.test('the quick start: first mail out and in, then a first campaign', async (t) => {
  const dev = await startDev();
  t.teardown(() => dev.stop());
  t.match(dev.out, 'MAILBOX DEVELOPMENT MODE');
  t.match(dev.out, 'with its own sending domain dev.mailbox.test');
  const script = printedCommands(dev.out);
  t.match(script, /export MAILBOX_URL=http:\/\/127\.0\.0\.1:\d+ MAILBOX_KEY=mbx_/);

  const run = bash(script);
  t.equal(run.status, 0, run.stderr);
  const answers = run.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  const thread = answers.find((answer) => answer.messages);
  t.equal(thread.messages.length, 1);
  t.equal(thread.messages[0].direction, 'inbound');
  t.match(thread.messages[0].text, 'Une premiere reponse.');
  t.match(
    answers.at(-1),
    { was: 'draft', campaign: { status: 'running', follow_ups: [{ after_days: 3 }] } },
    'the campaign runs',
  );

  // The test mail, then the campaign's two first messages, from the inbox on the dev domain.
  const mails = await Promise.all(
    [...(await outboxFiles(3)).values()].map((raw) => simpleParser(raw).then((mail) => ({ raw, mail }))),
  );
  const test = mails.find(({ mail }) => mail.subject === 'Premier essai');
  t.match(test?.mail, { from: { text: /agent@dev\.mailbox\.test/ }, to: { text: /dev@example\.com/ } });
  for (const [to, name] of [
    ['ana@example.com', 'Ana'],
    ['leo@example.net', 'Léo'],
  ]) {
    const sent = mails.find(({ mail }) => mail.subject === `Bonjour ${name}`);
    t.match(
      sent?.mail,
      {
        from: { text: /agent@dev\.mailbox\.test/ },
        to: { text: to },
        text: `Bonjour ${name}, voici un premier message de campagne.`,
      },
      `the campaign wrote to ${to}`,
    );
    t.match(sent?.raw, /^DKIM-Signature: .*d=dev\.mailbox\.test/m, 'signed by the dev domain');
  }
});

t.test('a later start reuses the dev space without showing a key; --new-key mints one', async (t) => {
  const { space_id } = JSON.parse(readFileSync(join(dataDir, 'dev-space.json'), 'utf8'));
  const again = await startDev();
  // Stopped right after its banner, while its workers still start: its redis-server stops with it.
  await again.stop();
  t.notOk(existsSync(join(dataDir, 'redis', 'redis.sock')), 'no redis-server left on its socket');
  t.match(again.out, `The dev space ${space_id}`);
  t.notMatch(again.out, 'mbx_');
  t.match(again.out, '--new-key');

  const renewed = await startDev('--new-key');
  t.teardown(() => renewed.stop());
  t.match(renewed.out, 'A new key for the dev space');
  const key = /MAILBOX_KEY=(mbx_\S+)/.exec(renewed.out)![1]!;
  const url = /MAILBOX_URL=(\S+)/.exec(renewed.out)![1]!;
  const settings = await fetch(`${url}/v1/get_settings`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: '{}',
  });
  t.equal((await settings.json()).space.id, space_id, 'a key of the same space');
  const domains = await fetch(`${url}/v1/list_domains`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: '{}',
  });
  t.match(
    (await domains.json()).domains,
    [{ domain: 'dev.mailbox.test', status: 'verified' }],
    'the same dev domain, still verified',
  );
});

t.test(
  'a new dev space in a Redis whose earlier dev space holds the domain starts all the same, saying so',
  async (t) => {
    rmSync(join(dataDir, 'dev-space.json'));
    const fresh = await startDev();
    t.teardown(() => fresh.stop());
    t.match(
      fresh.out,
      `dev.mailbox.test belongs to another space of this Redis (an earlier dev space): remove ${dataDir} to start afresh.`,
    );
    t.match(fresh.out, /MAILBOX_KEY=mbx_/, 'its key and commands all the same');
  },
);

t.test('the dev mode runs on the embedded Redis only', async (t) => {
  for (const elsewhere of [{ REDIS_URL: 'redis://10.0.0.5:6379' }, { REDIS_CLUSTER_NODES: '10.0.0.5:7000' }]) {
    const err: string[] = [];
    const code = await runCli(['serve', '--dev'], {
      env: { ...elsewhere, MAILBOX_DATA_DIR: dataDir },
      out: () => {},
      err: (line) => err.push(line),
    });
    t.equal(code, 2);
    t.match(err.join('\n'), /serve --dev runs on the embedded Redis only.*unset REDIS_(URL|CLUSTER_NODES)/);
  }
  const mixed = await runCli(['serve', '--role', 'http', '--dev'], { env: {}, out: () => {}, err: () => {} });
  t.equal(mixed, 2, '--dev runs every role');
});
