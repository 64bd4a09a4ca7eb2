import { timeRedis } from '../metrics.js';
import type { RedisClient } from './connect.js';

/**
 * Runs the queued commands in one round trip and answers their values in order. A failed command
 * throws rather than reading as an absent value. One space's keys only: one slot, Cluster-safe.
 */
export async function execAll<T = unknown>(pipeline: ReturnType<RedisClient['pipeline']>): Promise<T[]> {
  return ((await timeRedis('pipeline', () => pipeline.exec())) ?? []).map(([error, value]) => {
    if (error) throw error;
    return value as T;
  });
}
