import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import { IdFactory } from './ids.js';
import { createLogger, type Logger } from './log.js';
import { createRedis, type RedisClient } from './redis/connect.js';
import { Scripts } from './redis/scripts.js';
import { unwiredPorts, type Ports } from './ports.js';

/**
 * What every front end, worker and actor shares: no request state, only connections and settings, and
 * the side-effect ports the composition root (src/cli/compose.ts) wires.
 */
export interface Runtime {
  config: Config;
  redis: RedisClient;
  scripts: Scripts;
  clock: Clock;
  ids: IdFactory;
  log: Logger;
  ports: Ports;
}

export function createRuntime(
  config: Config,
  options: { clock?: Clock; redis?: RedisClient; log?: Logger } = {},
): Runtime {
  const clock = options.clock ?? systemClock;
  const log = options.log ?? createLogger(config.logLevel);
  const redis = options.redis ?? createRedis({ url: config.redisUrl, clusterNodes: config.redisClusterNodes });
  // ioredis reconnects by itself; without a listener it prints "Unhandled error event" outside our log.
  redis.on('error', (error: Error) => log.warn('redis connection error', { error: error.message }));
  return { config, redis, scripts: new Scripts(redis), clock, ids: new IdFactory(clock), log, ports: unwiredPorts };
}
