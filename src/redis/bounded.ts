/**
 * Bounds on waiting for Redis where an answer can be decided without it (docs/operations.md, "Redis
 * Cluster failover"): a read of a key shared across spaces, a wake-up written to another slot. A node
 * failing over then delays only the spaces whose own keys it holds.
 */
import { asMailboxError } from '../errors.js';

/** What a bounded wait ended in: the value, a failure, or nothing yet when the bound passed first. */
export type Bounded<T> = { value: T } | { failed: unknown } | { late: true };

/**
 * Waits at most `ms` for `work`. Past the bound the work goes on (its result or failure is the caller's
 * `settled` promise's business, never an unhandled rejection).
 */
export function within<T>(ms: number, work: Promise<T>): Promise<Bounded<T>> {
  const settled = work.then(
    (value): Bounded<T> => ({ value }),
    (failed: unknown): Bounded<T> => ({ failed }),
  );
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Bounded<T>>((resolve) => (timer = setTimeout(() => resolve({ late: true }), ms)));
  return Promise.race([settled, late]).finally(() => clearTimeout(timer));
}

/** Waits before each new try while Redis is away: about half a minute in all, a failover's time many times over. */
const REDIS_AWAY_RETRIES_MS = [500, 1000, 2000, 4000, 8000, 16_000];

/** Runs `write` again while it fails for Redis being away (it must be safe to run twice); other failures throw at once. */
export async function whileRedisAway<T>(write: () => Promise<T>): Promise<T> {
  for (const waitMs of REDIS_AWAY_RETRIES_MS) {
    try {
      return await write();
    } catch (error) {
      if (asMailboxError(error).code !== 'service_unavailable') throw error;
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }
  return write();
}
