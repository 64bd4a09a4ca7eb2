import { Cluster, Redis } from 'ioredis';

export type RedisClient = Redis | Cluster;

export interface RedisTarget {
  url?: string | null;
  clusterNodes?: { host: string; port: number }[] | null;
}

/** One factory for a single node (`REDIS_URL`, `redis://...` or a unix socket path) or a Redis Cluster. */
export function createRedis(target: RedisTarget, options: { lazy?: boolean } = {}): RedisClient {
  const common = { maxRetriesPerRequest: 3, lazyConnect: options.lazy ?? false };
  if (target.clusterNodes?.length) {
    return new Cluster(target.clusterNodes, { redisOptions: common, enableReadyCheck: true });
  }
  const url = target.url ?? 'redis://127.0.0.1:6379';
  if (url.startsWith('/') || url.startsWith('unix://')) {
    return new Redis({ ...common, path: url.replace(/^unix:\/\//, '') });
  }
  return new Redis(url, common);
}

