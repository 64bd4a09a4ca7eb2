/**
 * A redis-server of our own: the embedded default of `npm start` (data under ./var, append-only file)
 * and every test file's private server. Talks over a unix socket, never a shared port.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { resolve, join } from 'node:path';
import { Redis } from 'ioredis';

export interface LocalRedis {
  /** The socket path, usable as REDIS_URL. */
  url: string;
  /** Stops the server if this process started it. */
  stop(): Promise<void>;
}

const REDIS_MISSING =
  'redis-server was not found on PATH. Install it (Debian/Ubuntu: sudo apt-get install -y redis-server; ' +
  'macOS: brew install redis) or point REDIS_URL at a running Redis.';

async function answers(socket: string): Promise<boolean> {
  if (!existsSync(socket)) return false;
  const probe = new Redis({ path: socket, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

async function waitFor(socket: string, child: ChildProcess, log: () => string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`redis-server exited (${child.exitCode}): ${log()}`);
    if (await answers(socket)) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`redis-server did not answer on ${socket}: ${log()}`);
}

function redisServerInstalled(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/**
 * Uses the server already answering on `<dir>/redis.sock`, else starts one there.
 * `persist` keeps an append-only file in `dir` (the service); tests keep nothing.
 */
/**
 * Redis settings the key schema is sized for (docs/operations.md, "Redis memory"): a message hash holds
 * bodies up to 2 KB (longer ones live in the blob store), and stays a compact listpack rather than a
 * hashtable, at about half the memory. The embedded Redis starts with them; give them to your own
 * (bench/growth.mjs and bench/memory.mjs do). @public
 */
export const REDIS_ENCODING_ARGS = ['--hash-max-listpack-value', '4096'] as const;

export async function startLocalRedis(dir: string, options: { persist: boolean }): Promise<LocalRedis> {
  const home = resolve(dir);
  mkdirSync(home, { recursive: true });
  const socket = join(home, 'redis.sock');
  if (await answers(socket)) return { url: socket, stop: async () => {} };
  if (!redisServerInstalled()) throw new Error(REDIS_MISSING);
  const args = ['--port', '0', '--unixsocket', socket, '--unixsocketperm', '700', '--dir', home, '--save', ''];
  args.push('--appendonly', options.persist ? 'yes' : 'no', ...REDIS_ENCODING_ARGS);
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-2000)));
  child.stderr.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-2000)));
  const kill = () => child.kill('SIGTERM');
  process.once('exit', kill);
  await waitFor(socket, child, () => output);
  return {
    url: socket,
    stop: () =>
      new Promise((done) => {
        process.removeListener('exit', kill);
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        kill();
      }),
  };
}
