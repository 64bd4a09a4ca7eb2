/**
 * An OAuth client's record is compact, `[issued_at s, name, [redirect URIs]]` (actors/oauth-clients.ts);
 * records written before were JSON objects of the whole client. Each one, in use (its own key, its
 * expiry kept) or pending (under the anonymous index), becomes compact.
 */
import { clientRecord, type OAuthClient } from '../../../actors/oauth-clients.js';
import { globalKeys, KEY_PREFIX } from '../../redis/keys.js';
import { scanEveryPrimary } from '../../redis/scan.js';
import type { Runtime } from '../../runtime.js';
import type { Migration } from './steps.js';

const CLIENTS_IN_USE = `${KEY_PREFIX}:{ocl:*}`;

const isObjectRecord = (stored: string | null): stored is string => Boolean(stored?.startsWith('{'));

async function rewriteClients(rt: Runtime): Promise<number> {
  let rewritten = 0;
  await scanEveryPrimary(rt.redis, CLIENTS_IN_USE, async (found) => {
    for (const key of found) {
      const stored = await rt.redis.get(key);
      if (!isObjectRecord(stored)) continue;
      await rt.redis.set(key, clientRecord(JSON.parse(stored) as OAuthClient), 'KEEPTTL');
      rewritten++;
    }
  });
  const pending = globalKeys.pendingClients(rt.config.anonymous.index);
  for (const [clientId, stored] of Object.entries(await rt.redis.hgetall(pending))) {
    if (!isObjectRecord(stored)) continue;
    await rt.redis.hset(pending, clientId, clientRecord(JSON.parse(stored) as OAuthClient));
    rewritten++;
  }
  return rewritten;
}

export const oauthClients: Migration = { name: 'oauth-clients', run: rewriteClients };
