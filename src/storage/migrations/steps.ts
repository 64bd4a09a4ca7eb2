/** What a migration step is, and the walks the steps share. */
import { SPACE_HASHES, spaceOfSpaceHash } from '../../redis/keys.js';
import { scanEveryPrimary } from '../../redis/scan.js';
import type { Runtime } from '../../runtime.js';

/**
 * One step of `mailbox admin migrate`: rewrites what an older layout wrote into today's. Idempotent
 * (run again after a crash, it finds nothing left to rewrite); answers how many records it rewrote.
 */
export interface Migration {
  name: string;
  run(rt: Runtime): Promise<number>;
}

/** Visits every space, on every primary (a SCAN of each, once). */
export async function eachSpace(rt: Runtime, visit: (spaceId: string) => Promise<void>): Promise<void> {
  await scanEveryPrimary(rt.redis, SPACE_HASHES, async (found) => {
    for (const key of found) await visit(spaceOfSpaceHash(key));
  });
}
