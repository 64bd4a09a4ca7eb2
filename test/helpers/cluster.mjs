/**
 * A throwaway 3-primary Redis Cluster from redis-server binaries, for `npm run test:cluster`, and with a
 * replica per primary, append-only, for the cluster drill (bench/cluster-drill.mjs).
 * Plain ES module JavaScript so the runner starts it before any TypeScript is compiled.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Redis } from 'ioredis';

const HOST = '127.0.0.1';
const SLOTS = 16384;
const BUS_OFFSET = 10000; // redis-server's default cluster bus port is port + 10000
const WAIT_MS = 20_000;

const pause = (ms) => new Promise((r) => setTimeout(r, ms));

function portFree(port) {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ port, host: HOST, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

/**
 * Ports in 12000-21999, so the bus port (22000-31999) stays below Linux's ephemeral range (32768+)
 * where outgoing connections of parallel test files could grab it. Random, so two runs rarely race.
 */
async function freePorts(count, taken = new Set()) {
  const ports = [];
  for (let tries = 0; ports.length < count; tries++) {
    if (tries > 500) throw new Error('cluster: no free port pair (p, p+10000) found in 12000-21999');
    const port = 12000 + Math.floor(Math.random() * 10000);
    if (taken.has(port) || ports.includes(port)) continue;
    if ((await portFree(port)) && (await portFree(port + BUS_OFFSET))) ports.push(port);
  }
  return ports;
}

/** Polls `check` until it returns true; throws `what` with the last error after WAIT_MS. */
async function until(what, check) {
  const deadline = Date.now() + WAIT_MS;
  let last = '';
  while (Date.now() < deadline) {
    try {
      if (await check()) return;
    } catch (err) {
      last = err.message;
    }
    await pause(50);
  }
  throw new Error(`cluster: ${what} within ${WAIT_MS / 1000} s${last ? ` (last error: ${last})` : ''}`);
}

/** The redis-server command line of a node (the drill restarts a killed node with it). */
export function nodeArgs(dir, port, { appendonly = false, nodeTimeoutMs = 15_000 } = {}) {
  const home = join(dir, String(port));
  mkdirSync(home, { recursive: true });
  // --dir first: redis chdirs there while reading options, so nodes.conf lands inside it.
  const args = [
    '--dir',
    home,
    '--port',
    String(port),
    '--bind',
    HOST,
    '--cluster-enabled',
    'yes',
    '--cluster-node-timeout',
    String(nodeTimeoutMs),
  ];
  args.push('--cluster-config-file', 'nodes.conf', '--save', '', '--appendonly', appendonly ? 'yes' : 'no');
  // As every Redis the service runs on should be (REDIS_ENCODING_ARGS, src/redis/local.ts): a message hash stays a listpack.
  args.push('--hash-max-listpack-value', '4096');
  return args;
}

function startNode(dir, port, options) {
  const args = nodeArgs(dir, port, options);
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (d) => (output = (output + d.toString()).slice(-2000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  child.once('error', (err) => keep(`spawn failed: ${err.message}`));
  return { port, child, log: () => output };
}

/** `replicas`: one replica per primary when 1 (the drill), none by default; `appendonly`, `nodeTimeoutMs` as redis.conf's. */
export async function startCluster({ dir, replicas = 0, appendonly = false, nodeTimeoutMs = 15_000 }) {
  mkdirSync(dir, { recursive: true });
  const primaries = 3;
  const ports = await freePorts(primaries * (1 + replicas));
  const servers = ports.map((port) => startNode(dir, port, { appendonly, nodeTimeoutMs }));
  const clients = [];
  // If the runner dies without calling stop(), do not leave servers behind.
  const killAll = () => servers.forEach((s) => s.child.exitCode === null && s.child.kill('SIGKILL'));
  process.once('exit', killAll);

  const stop = async () => {
    process.removeListener('exit', killAll);
    clients.forEach((c) => c.disconnect());
    await Promise.all(
      servers.map(
        (s) =>
          new Promise((done) => {
            if (s.child.exitCode !== null || s.child.signalCode !== null) return done();
            const hard = setTimeout(() => s.child.kill('SIGKILL'), 5000);
            s.child.once('exit', () => (clearTimeout(hard), done()));
            s.child.kill('SIGTERM');
          }),
      ),
    );
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    for (const s of servers) {
      const client = new Redis({
        host: HOST,
        port: s.port,
        lazyConnect: true,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
      });
      client.on('error', () => {}); // refused connects while the server boots: PING below reports
      clients.push(client);
      await until(`redis-server on port ${s.port} did not answer PING`, async () => {
        if (s.child.exitCode !== null) throw new Error(`redis-server exited (${s.child.exitCode}): ${s.log()}`);
        if (client.status !== 'ready')
          await client.connect().catch((err) => (client.disconnect(), Promise.reject(err)));
        return (await client.ping()) === 'PONG';
      });
    }

    // Three contiguous ranges, the last one taking the remainder.
    const share = Math.floor(SLOTS / primaries);
    await Promise.all(
      clients.slice(0, primaries).map((c, i) => {
        const last = i === primaries - 1 ? SLOTS - 1 : (i + 1) * share - 1;
        return c.call('CLUSTER', 'ADDSLOTSRANGE', String(i * share), String(last));
      }),
    );
    // One node meeting the others is enough: gossip introduces the rest.
    for (const s of servers.slice(1)) await clients[0].call('CLUSTER', 'MEET', HOST, String(s.port));

    // Every node known to every other before a replica is told whom to follow.
    await until('nodes did not all meet', async () => {
      for (const c of clients)
        if (
          String(await c.call('CLUSTER', 'NODES'))
            .trim()
            .split('\n').length !== servers.length
        )
          return false;
      return true;
    });
    for (let i = primaries; i < servers.length; i++) {
      const primaryId = String(await clients[i - primaries].call('CLUSTER', 'MYID'));
      await until(
        `replica on port ${servers[i].port} did not follow its primary`,
        async () => (await clients[i].call('CLUSTER', 'REPLICATE', primaryId)) === 'OK',
      );
    }

    await until(`nodes did not reach cluster_state:ok and agree on ${primaries} primaries`, async () => {
      for (const c of clients) {
        if (!String(await c.call('CLUSTER', 'INFO')).includes('cluster_state:ok')) return false;
        // Field 3 of a CLUSTER NODES line is its flags, e.g. `myself,master`. A node still in
        // handshake is listed under a temporary id: wait until the primaries and replicas have settled.
        const flags = String(await c.call('CLUSTER', 'NODES'))
          .trim()
          .split('\n')
          .map((l) => l.split(' ')[2].split(','));
        if (flags.length !== servers.length || flags.some((f) => f.some((x) => /handshake|noaddr|fail/.test(x))))
          return false;
        if (flags.filter((f) => f.includes('master')).length !== primaries) return false;
      }
      return true;
    });
    clients.forEach((c) => c.disconnect());
  } catch (err) {
    await stop();
    throw err;
  }
  return { nodes: ports.map((port) => ({ host: HOST, port })), servers, stop };
}
