/**
 * Each test file gets its own redis-server on a unix socket (started once per file, stopped at its
 * end); under `npm run test:cluster` every file shares the 3-primary cluster the runner started.
 * Tests isolate by identity (each makes its own space), never by flushing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { createRedis, type RedisTarget } from '../../src/redis/connect.js';
import { startLocalRedis } from '../../src/redis/local.js';
import { markFreshStore } from '../../src/storage/format.js';

let target: Promise<RedisTarget> | null = null;

export const clusterMode = (): boolean => Boolean(process.env.MAILBOX_TEST_CLUSTER_NODES);

function clusterTarget(): RedisTarget {
  const nodes = process.env.MAILBOX_TEST_CLUSTER_NODES!.split(',').map((entry) => {
    const [host, port] = entry.split(':');
    return { host: host!, port: Number(port) };
  });
  return { clusterNodes: nodes };
}

async function fileRedis(): Promise<RedisTarget> {
  const dir = mkdtempSync(join(tmpdir(), 'mbx-test-'));
  const local = await startLocalRedis(dir, { persist: false });
  t.teardown(async () => {
    await local.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  return { url: local.url };
}

/**
 * A test's store is marked at today's format before anything writes to it, as a fresh store's first
 * process marks it (src/storage/format.ts): a space the test makes in-process does not make it look
 * older to the `mailbox` commands it runs next.
 */
async function markedFresh(target: RedisTarget): Promise<RedisTarget> {
  const client = createRedis(target);
  try {
    await markFreshStore(client);
  } finally {
    client.disconnect();
  }
  return target;
}

/** Where this test file's Redis is. */
export function testRedisTarget(): Promise<RedisTarget> {
  target ??= (clusterMode() ? Promise.resolve(clusterTarget()) : fileRedis()).then(markedFresh);
  return target;
}

/** A new connection to this file's Redis, closed when the file ends. */
export async function testRedis() {
  const client = createRedis(await testRedisTarget());
  t.teardown(() => client.disconnect());
  return client;
}
