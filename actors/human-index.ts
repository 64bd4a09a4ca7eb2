/**
 * Which spaces an address is the human of: a set per address (globalKeys.human, named by its sha256),
 * across spaces, so under its own tag. Added to before a space is created or its human verified, never
 * removed from: a member whose human is now another address is skipped when read, so a refused or
 * replaced attachment leaves nothing wrong behind.
 */
import { globalKeys, SPACE_HASHES, spaceKeys } from '../src/redis/keys.js';
import { scanEveryPrimary } from '../src/redis/scan.js';
import type { Runtime } from '../src/runtime.js';
import { sha256Hex } from '../src/secrets.js';

export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

/** Notes that `email` is, or is about to be, the human of `spaceId`. */
export async function indexHuman(rt: Runtime, email: string, spaceId: string): Promise<void> {
  await rt.redis.sadd(globalKeys.human(sha256Hex(normaliseEmail(email))), spaceId);
}

/** Of `candidates` (read from the index), the spaces whose human is `address` now, with their names, by id. */
export async function spacesOfHuman(
  rt: Runtime,
  address: string,
  candidates: string[],
): Promise<{ id: string; name: string }[]> {
  const fields = await Promise.all(candidates.map((id) => rt.redis.hmget(spaceKeys(id).space, 'human_email', 'name')));
  return candidates
    .flatMap((id, i) => (fields[i]![0] === address ? [{ id, name: fields[i]![1] || id }] : []))
    .sort((a, b) => a.id.localeCompare(b.id));
}

/**
 * Indexes the human of every space (`mailbox admin index-humans`): for spaces made before the index
 * existed. Scans every primary; returns how many spaces have a human.
 */
export async function indexEveryHuman(rt: Runtime): Promise<number> {
  let indexed = 0;
  await scanEveryPrimary(rt.redis, SPACE_HASHES, async (found) => {
    for (const key of found) {
      const [spaceId, human] = await rt.redis.hmget(key, 'id', 'human_email');
      if (!spaceId || !human) continue;
      await indexHuman(rt, human, spaceId);
      indexed++;
    }
  });
  return indexed;
}
