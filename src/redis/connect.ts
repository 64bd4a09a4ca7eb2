import { Cluster, Redis, type RedisOptions } from 'ioredis';

export type RedisClient = Redis | Cluster;

export interface RedisTarget {
  url?: string | null;
  clusterNodes?: { host: string; port: number }[] | null;
}

/**
 * How long a request may wait for Redis (docs/operations.md, "Redis outage"). While Redis is away a
 * command waits in the offline queue until two reconnection attempts have failed, then fails: about
 * 1 s when the server refuses, at most 2 × (1.5 s connect + 0.5 s delay) when it does not answer at
 * all. A command already sent to a server that hangs fails after 5 s. Those failures answer
 * `service_unavailable` (src/errors.ts). Reconnection never stops and is retried every 0.5 s at
 * most, so service resumes within half a second of Redis coming back. The command timeout is longer
 * than the offline-queue bound on purpose: a command that timed out while still queued would
 * otherwise be sent anyway at reconnection, after its caller had been told 503.
 */
const REQUEST_BOUNDS = {
  maxRetriesPerRequest: 1,
  retryStrategy: (attempt: number) => Math.min(attempt * 100, 500),
  connectTimeout: 1500,
  commandTimeout: 5000,
};

/** A connection for blocking reads (BullMQ workers): no retry cap, and a block outlives the command timeout. */
export const BLOCKING_OPTIONS = { maxRetriesPerRequest: null, commandTimeout: undefined };

/** One factory for a single node (`REDIS_URL`, `redis://...` or a unix socket path) or a Redis Cluster. */
export function createRedis(target: RedisTarget, options: { lazy?: boolean } = {}): RedisClient {
  const common = { ...REQUEST_BOUNDS, lazyConnect: options.lazy ?? false };
  if (target.clusterNodes?.length) {
    const cluster = new Cluster(target.clusterNodes, { redisOptions: common, enableReadyCheck: true });
    cluster.on('+node', (node: Redis) => coalesceWrites(node));
    return cluster;
  }
  const url = target.url ?? 'redis://127.0.0.1:6379';
  if (url.startsWith('/') || url.startsWith('unix://')) {
    return coalesceWrites(new Redis({ ...common, path: url.replace(/^unix:\/\//, '') }));
  }
  return coalesceWrites(new Redis(url, common));
}

/**
 * ioredis writes each command to its socket at once: a send_email's five commands were five write
 * syscalls, and every request in flight added its own. Corking the socket at the first write of a
 * tick and uncorking on the next tick turns all the commands one tick issues (every request whose
 * Redis answer arrived in the same read) into one writev. Order is unchanged; a command waits at most
 * until the current microtasks are done. A command not awaited may so leave after a write the same
 * tick makes to another socket (the webhook worker's acknowledgements: src/webhooks/worker.ts).
 * (setImmediate batched more but added latency and lowered closed-loop throughput: BENCHMARKS.md,
 * "Sending".)
 */
function coalesceWrites(redis: Redis): Redis {
  redis.on('connect', () => {
    const socket = redis.stream;
    const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
    let corked = false;
    const uncork = () => {
      corked = false;
      socket.uncork();
    };
    (socket as { write: (...args: unknown[]) => boolean }).write = (...args) => {
      if (!corked) {
        corked = true;
        socket.cork();
        process.nextTick(uncork);
      }
      return write(...args);
    };
  });
  return redis;
}

/** Whether Redis answers a PING (the health check); false on any failure. */
export const redisAnswers = (redis: RedisClient): Promise<boolean> =>
  redis.ping().then(
    () => true,
    () => false,
  );

/**
 * A new connection to the same Redis for one blocking read of at most `blockMs` (the workspace's
 * waits): a block would hold the shared connection's every other command. Its command timeout
 * outlasts the block; like a request's, it fails during an outage instead of waiting for Redis to
 * come back. The caller closes it.
 */
export function waitConnection(redis: RedisClient, blockMs: number): RedisClient {
  return duplicateConnection(redis, { ...REQUEST_BOUNDS, commandTimeout: blockMs + REQUEST_BOUNDS.commandTimeout });
}

/** A new connection to the same Redis (one node or a Cluster), its options overridden by `overrides`. */
export const duplicateConnection = (redis: RedisClient, overrides: Partial<RedisOptions> = {}): RedisClient =>
  redis instanceof Cluster
    ? redis.duplicate(undefined, { redisOptions: { ...redis.options.redisOptions, ...overrides } })
    : redis.duplicate(overrides);
