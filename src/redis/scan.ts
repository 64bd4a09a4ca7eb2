/**
 * Walks every key matching a pattern, on every primary of a Cluster (each holds its own slots) or on
 * the one server. For the operator's one-off commands (`mailbox admin index-humans`, `mailbox admin
 * migrate`) and a start on a store that has no format yet: never on a timer.
 */
import { Cluster, type Redis } from 'ioredis';
import type { RedisClient } from './connect.js';

/** Calls `visit` with each page of keys (at most a few hundred); stops early when it answers false. */
export async function scanEveryPrimary(
  redis: RedisClient,
  pattern: string,
  visit: (keys: string[]) => Promise<boolean | void>,
): Promise<void> {
  const nodes: Redis[] = redis instanceof Cluster ? redis.nodes('master') : [redis];
  for (const node of nodes) {
    let cursor = '0';
    do {
      const [next, found] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      cursor = next;
      if (found.length && (await visit(found)) === false) return;
    } while (cursor !== '0');
  }
}
