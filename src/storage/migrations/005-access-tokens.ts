/**
 * An OAuth access token names its connection (`mbt_…_<key id body>`) and its record holds its scope
 * (`<key id> <audience> <expiry ms> <scope>`, actors/space.ts); tokens issued before had neither. The
 * token is what the client holds, so it cannot be rewritten: the records of such tokens (an hour's
 * life at most) are deleted, and their clients get a new one with their refresh token, as at any expiry.
 */
import { KEY_PREFIX } from '../../redis/keys.js';
import { scanEveryPrimary } from '../../redis/scan.js';
import type { Runtime } from '../../runtime.js';
import type { Migration } from './steps.js';

const ACCESS_TOKENS = `${KEY_PREFIX}:{spc_*}:oauth:at:*`;

/** The record of a token issued before scopes: three fields, no scope. */
const WITHOUT_SCOPE = /^\S+ \S+ \d+$/;

async function dropOlderTokens(rt: Runtime): Promise<number> {
  let dropped = 0;
  await scanEveryPrimary(rt.redis, ACCESS_TOKENS, async (found) => {
    for (const key of found) {
      const record = await rt.redis.get(key);
      if (record === null || !WITHOUT_SCOPE.test(record)) continue;
      dropped += await rt.redis.del(key);
    }
  });
  return dropped;
}

export const accessTokens: Migration = { name: 'access-tokens', run: dropOlderTokens };
