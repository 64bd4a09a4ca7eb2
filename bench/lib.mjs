// What the Node benchmarks share (bench/lib.sh is the shell side).
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { SMTPServer } from 'smtp-server';

/** A loopback port free at this moment, for a server the benchmark starts. */
export const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/**
 * A redis-server on a loopback port that keeps nothing on disk, started with `args` (the design's
 * settings) and killed when the benchmark exits; resolves once it accepts connections.
 */
export async function startRedis(port, args = []) {
  const redis = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...args],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  process.on('exit', () => redis.kill('SIGKILL'));
  await new Promise((done) => redis.stdout.on('data', (chunk) => String(chunk).includes('Ready to accept') && done()));
  return redis;
}

/**
 * The service of the build under `root` (its dist/) in this process, on its own redis-server (with the
 * Redis settings that build asks for; none for a build from before them) and data dir, both gone at
 * exit: a ManualClock 40 days back (inboxes warmed up: the day's quota is the plan's), plan `bench`,
 * `env` on top. `load(path)` imports a module of that build.
 */
export async function inProcessService(root, name, env = {}) {
  const load = (path) => import(pathToFileURL(join(root, 'dist', path)).href);
  const [{ loadConfig }, { createRuntime }, { composeRuntime }, { ManualClock }, { REDIS_ENCODING_ARGS = [] }] =
    await Promise.all(
      ['src/config.js', 'src/runtime.js', 'src/cli/compose.js', 'src/clock.js', 'src/redis/local.js'].map(load),
    );
  const dataDir = mkdtempSync(join(tmpdir(), `mailbox-bench-${name}-`));
  process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const redisServer = await startRedis(port, REDIS_ENCODING_ARGS);
  const clock = new ManualClock(Date.now() - 40 * 24 * 3600 * 1000);
  const config = loadConfig({
    REDIS_URL: `redis://127.0.0.1:${port}`,
    MAILBOX_DATA_DIR: dataDir,
    MAILBOX_MASTER_KEY: randomBytes(32).toString('base64'),
    LOG_LEVEL: 'warn',
    PLANS: JSON.stringify({ bench: { inbox_cap: 5, daily_max: 10_000_000 } }),
    ...env,
  });
  return { rt: composeRuntime(createRuntime(config, { clock })), clock, load, port, dataDir, redisServer };
}

/** The authentication verdicts of a received benchmark message from `exp.test`: every check passed. */
export const passedChecks = (from) => ({
  spf: 'pass',
  dkim: [{ domain: 'exp.test', selector: 's1', result: 'pass' }],
  dmarc: 'pass',
  arc: 'none',
  header_from: from,
});

/** `redis-cli -p <port>` for a benchmark's own Redis: its answer, trimmed (INFO sections, MEMORY USAGE). */
export const redisCli =
  (port) =>
  (...args) =>
    execFileSync('redis-cli', ['-p', String(port), ...args.map(String)], { encoding: 'utf8' }).trim();

const SYLLABLES =
  'ba be bi bo bu ca ce ci co cu da de di do du fa fe fi fo ga ge go la le li lo lu ma me mi mo mu na ne ni no pa pe pi po pu ra re ri ro ru sa se si so su ta te ti to tu va ve vi vo cha che chi pré tré cré men ton tion ment eau ier ard our'.split(
    ' ',
  );

/**
 * Seeded French-looking text, the same on every run for one seed: `size` invented words, drawn by
 * `zipf` with Zipf frequencies (s = 1.07: the rank-r word weighs 1 / r^s), as mail's words are.
 */
export function seededWords(seed, size) {
  let state = seed;
  const random = () => {
    state = (state + 0x6d2b79f5) | 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const pick = (list) => list[Math.floor(random() * list.length)];
  const between = (low, high) => low + Math.floor(random() * (high - low + 1));
  const words = new Set();
  while (words.size < size) words.add(Array.from({ length: between(2, 4) }, () => pick(SYLLABLES)).join(''));
  const vocabulary = [...words];
  const cumulative = [];
  vocabulary.reduce((sum, _, r) => (cumulative[r] = sum + 1 / (r + 1) ** 1.07), 0);
  const total = cumulative[cumulative.length - 1];
  const zipf = () => {
    const target = random() * total;
    let [low, high] = [0, cumulative.length - 1];
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cumulative[middle] < target) low = middle + 1;
      else high = middle;
    }
    return vocabulary[low];
  };
  return { random, pick, between, vocabulary, zipf };
}

/** The drills' sink: 250 to everything; each copy recorded by its X-Mailbox-Message-Id, with when it was accepted. */
export function startSink() {
  const copies = new Map();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      let head = '';
      stream.on('data', (chunk) => head.length < 8192 && (head += chunk.toString('latin1')));
      stream.on('end', () => {
        const id = /^X-Mailbox-Message-Id: *(\S+)/im.exec(head)?.[1] ?? '?';
        copies.set(id, [...(copies.get(id) ?? []), Date.now()]);
        callback();
      });
    },
  });
  // A killed worker resets its connections: that is the drill, not the sink's error.
  server.on('error', () => {});
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, copies, port: server.server.address().port })),
  );
}

/**
 * The processes a drill starts, by name, each in its own process group (so a kill reaches its
 * children), its stderr appended to `<dir>/<name>.log`.
 */
export function processGroup(dir) {
  const procs = new Map();
  function start(name, command, args, env = {}) {
    const child = spawn(command, args, {
      env: { ...process.env, ...env },
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr.on('data', (chunk) => appendFileSync(join(dir, `${name}.log`), chunk));
    procs.set(name, child);
    return child;
  }
  /** Signals the child's group and waits for it to exit (SIGKILL after 10 s of a softer signal). */
  function stop(child, signal = 'SIGTERM') {
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    const gone = new Promise((resolve) => child.once('exit', resolve));
    const signalGroup = (sig) => {
      try {
        process.kill(-child.pid, sig);
      } catch {
        child.kill(sig);
      }
    };
    signalGroup(signal);
    const hard = setTimeout(() => signalGroup('SIGKILL'), 10_000);
    return gone.finally(() => clearTimeout(hard));
  }
  return { procs, start, stop };
}

/** Resolves once `check` answers true (a throw counts as not yet), polled every 100 ms; throws after `ms`. */
export async function until(what, check, ms = 20_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check().catch(() => false)) return;
    await sleep(100);
  }
  throw new Error(`${what}: not ready within ${ms} ms`);
}
