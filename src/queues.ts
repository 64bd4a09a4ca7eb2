/**
 * BullMQ queues, on the runtime's own connection (a queue only writes; workers block on their own).
 * Each queue has a hash-tagged prefix (src/redis/keys.ts), so its keys share one Cluster slot.
 */
import { Queue } from 'bullmq';
import { QUEUE_PREFIX } from './redis/keys.js';
import type { Runtime } from './runtime.js';

export const DOMAIN_QUEUE = 'domains';

/** How often a domain's records are checked again, by status (interface.md part 8). */
export const RECHECK_EVERY_MS = { verified: 24 * 3600 * 1000, suspended: 3600 * 1000 } as const;

export interface RecheckJob {
  space_id: string;
  domain_id: string;
}

const queues = new WeakMap<Runtime, Queue<RecheckJob>>();

export function domainQueue(rt: Runtime): Queue<RecheckJob> {
  let queue = queues.get(rt);
  if (!queue) {
    queue = new Queue<RecheckJob>(DOMAIN_QUEUE, { connection: rt.redis, prefix: QUEUE_PREFIX.domains });
    queues.set(rt, queue);
  }
  return queue;
}

/** One scheduler per domain; BullMQ ids may not hold `:`. */
export const recheckSchedulerId = (spaceId: string, domainId: string): string => `recheck-${spaceId}-${domainId}`;

/**
 * Sets the domain's recheck after a change of status: daily when verified, hourly when suspended,
 * none while pending (nothing changes until verify_domain). The first run comes one period from now,
 * by the system clock: BullMQ times its jobs with it, not with the injected one.
 */
export async function scheduleDomainRecheck(rt: Runtime, spaceId: string, domainId: string, status: 'pending' | 'verified' | 'suspended'): Promise<void> {
  if (status === 'pending') return cancelDomainRecheck(rt, spaceId, domainId);
  const every = RECHECK_EVERY_MS[status];
  await domainQueue(rt).upsertJobScheduler(
    recheckSchedulerId(spaceId, domainId),
    { every, startDate: Date.now() + every },
    { name: 'recheck', data: { space_id: spaceId, domain_id: domainId }, opts: { removeOnComplete: 100, removeOnFail: 500 } },
  );
}

export async function cancelDomainRecheck(rt: Runtime, spaceId: string, domainId: string): Promise<void> {
  await domainQueue(rt).removeJobScheduler(recheckSchedulerId(spaceId, domainId));
}

/** Closes the runtime's queues (not its connection, which the runtime owns). */
export async function closeQueues(rt: Runtime): Promise<void> {
  await queues.get(rt)?.close();
  queues.delete(rt);
}
