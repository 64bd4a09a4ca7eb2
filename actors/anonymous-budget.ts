/**
 * The budgets of the endpoints a caller reaches without a key (OAuth registration, authorization and
 * token; the human's sign-in): a token bucket per client address and one for the whole service, per
 * endpoint, in Redis (every front end spends the same ones), checked and spent in one step
 * (lua/anonymous/spendBudget). Refusal: anonymous_rate_limited {retry_after_seconds, scope}.
 */
import type { AnonymousEndpoint } from '../src/config.js';
import { globalKeys } from '../src/redis/keys.js';
import type { Runtime } from '../src/runtime.js';
import * as anonymousLua from './bindings/anonymous.generated.js';

/** Spends one request of `endpoint` made from `client` (an IPv4 address or an IPv6 /64). */
export async function spendAnonymousBudget(rt: Runtime, endpoint: AnonymousEndpoint, client: string): Promise<void> {
  const { budgets, index } = rt.config.anonymous;
  const { perAddress, service } = budgets[endpoint];
  await anonymousLua.spendBudget(
    rt.scripts,
    { buckets: globalKeys.anonymousBuckets(index, endpoint), refills: globalKeys.anonymousRefills(index, endpoint) },
    {
      now: rt.clock.now(),
      address: client,
      addressCapacity: perAddress.burst,
      addressPeriod: perAddress.periodMs,
      serviceCapacity: service.burst,
      servicePeriod: service.periodMs,
    },
  );
}
