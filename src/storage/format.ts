/**
 * The storage format of the store: one integer under globalKeys.storageFormat, the number of the last
 * migration step applied (src/storage/migrations/). A fresh store is written at today's format; every
 * process checks it at start (src/cli/runtime.ts): a newer format (written by a later version) or an
 * older one (to migrate first, `mailbox admin migrate`) refuses to start. docs/operations.md, "Upgrading".
 */
import { globalKeys, SPACE_HASHES } from '../redis/keys.js';
import type { RedisClient } from '../redis/connect.js';
import { scanEveryPrimary } from '../redis/scan.js';
import { MIGRATIONS } from './migrations/index.js';

/** Today's format: the number of migration steps this version knows. */
export const STORAGE_FORMAT = MIGRATIONS.length;

export const formatTooNew = (stored: number): string =>
  `Le stockage Redis est au format ${stored}, plus récent que celui de cette version de Mailbox (${STORAGE_FORMAT}) : ` +
  "démarrez la version qui l'a écrit, ou une plus récente (docs/operations.md, « Upgrading »).";

const formatTooOld = (stored: number): string =>
  `Le stockage Redis est au format ${stored}, plus ancien que celui de cette version de Mailbox (${STORAGE_FORMAT}) : ` +
  'arrêtez tous ses processus, lancez `mailbox admin migrate`, puis redémarrez (docs/operations.md, « Upgrading »).';

/** Whether any space exists: a store without a format but with spaces predates the format (format 0). */
async function holdsSpaces(redis: RedisClient): Promise<boolean> {
  let found = false;
  await scanEveryPrimary(redis, SPACE_HASHES, async () => {
    found = true;
    return false;
  });
  return found;
}

/**
 * The store's format: the stored one; without one, 0 for a store that holds spaces (written before
 * the format existed), null for an empty one.
 */
export async function storedFormat(redis: RedisClient): Promise<number | null> {
  const stored = await redis.get(globalKeys.storageFormat);
  if (stored !== null) return Number(stored);
  return (await holdsSpaces(redis)) ? 0 : null;
}

/** Marks an empty store at today's format; answers the format it holds then (another process may have marked it first). */
export async function markFreshStore(redis: RedisClient): Promise<number> {
  await redis.set(globalKeys.storageFormat, STORAGE_FORMAT, 'NX');
  return Number(await redis.get(globalKeys.storageFormat));
}

/** Throws, with the French sentence for the operator, unless the store is at today's format (an empty one is marked so). */
export async function checkStorageFormat(redis: RedisClient): Promise<void> {
  const stored = (await storedFormat(redis)) ?? (await markFreshStore(redis));
  if (stored > STORAGE_FORMAT) throw new Error(formatTooNew(stored));
  if (stored < STORAGE_FORMAT) throw new Error(formatTooOld(stored));
}
