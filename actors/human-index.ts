/**
 * Which spaces an address is the human of: a set per address (globalKeys.human, named by its sha256),
 * across spaces, so under its own tag. Added to before a space is created or its human verified, never
 * removed from: a member whose human is now another address is skipped when read, so a refused or
 * replaced attachment leaves nothing wrong behind.
 */
import { globalKeys, spaceKeys } from '../src/redis/keys.js';
import type { Runtime } from '../src/runtime.js';
import { sha256Hex } from '../src/secrets.js';

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
