/**
 * Which spaces an address is the human of: a set per address (globalKeys.human, named by its sha256),
 * across spaces, so under its own tag. Added to before a space is created or its human verified, never
 * removed from: a member whose human is now another address is skipped when read, so a refused or
 * replaced attachment leaves nothing wrong behind.
 */
import { Cluster, type Redis } from 'ioredis';
import { globalKeys, KEY_PREFIX, spaceKeys } from '../src/redis/keys.js';
import type { Runtime } from '../src/runtime.js';
import { sha256Hex } from '../src/secrets.js';

/** Every space's fields hash (spaceKeys(id).space), whatever the space. */
const SPACE_HASHES = `${KEY_PREFIX}:{spc_*}:space`;

export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

/** Notes that `email` is, or is about to be, the human of `spaceId`. */
export async function indexHuman(rt: Runtime, email: string, spaceId: string): Promise<void> {
  await rt.redis.sadd(globalKeys.human(sha256Hex(normaliseEmail(email))), spaceId);
}

/** The spaces whose human is `email` now, by id. */
export async function spacesOfHuman(rt: Runtime, email: string): Promise<string[]> {
  const address = normaliseEmail(email);
  const candidates = await rt.redis.smembers(globalKeys.human(sha256Hex(address)));
  const humans = await Promise.all(candidates.map((id) => rt.redis.hget(spaceKeys(id).space, 'human_email')));
  return candidates.filter((_, i) => humans[i] === address).sort();
}

/**
 * Indexes the human of every space (`mailbox admin index-humans`): for spaces made before the index
 * existed. Scans every primary; returns how many spaces have a human.
 */
export async function indexEveryHuman(rt: Runtime): Promise<number> {
  const nodes: Redis[] = rt.redis instanceof Cluster ? rt.redis.nodes('master') : [rt.redis];
  let indexed = 0;
  for (const node of nodes) {
    let cursor = '0';
    do {
      const [next, found] = await node.scan(cursor, 'MATCH', SPACE_HASHES, 'COUNT', 500);
      cursor = next;
      for (const key of found) {
        const [spaceId, human] = await rt.redis.hmget(key, 'id', 'human_email');
        if (!spaceId || !human) continue;
        await indexHuman(rt, human, spaceId);
        indexed++;
      }
    } while (cursor !== '0');
  }
  return indexed;
}
