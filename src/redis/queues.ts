/**
 * BullMQ queues, on the runtime's own connection (a queue only writes; workers block on their own).
 * Each queue has a hash-tagged prefix (src/redis/keys.ts), so its keys share one Cluster slot.
 */
import { Queue } from 'bullmq';
import type { QueueDepths } from '../metrics.js';
import { QUEUE_PREFIX } from './keys.js';
import type { Runtime } from '../runtime.js';

/** The runtime's queues, one per name, made on first use and closed by closeQueues. */
const opened = new WeakMap<Runtime, Map<string, Queue>>();

function queueOf<T>(rt: Runtime, name: string, prefix: string): Queue<T> {
  let byName = opened.get(rt);
  if (!byName) opened.set(rt, (byName = new Map()));
  let queue = byName.get(name);
  if (!queue) byName.set(name, (queue = new Queue(name, { connection: rt.redis, prefix })));
  return queue as unknown as Queue<T>;
}

export const DOMAIN_QUEUE = 'domains';

/** How often a domain's records are checked again, by status (interface.md part 8). */
export const RECHECK_EVERY_MS = { verified: 24 * 3600 * 1000, suspended: 3600 * 1000 } as const;

export interface RecheckJob {
  space_id: string;
  domain_id: string;
}

export const domainQueue = (rt: Runtime): Queue<RecheckJob> => queueOf(rt, DOMAIN_QUEUE, QUEUE_PREFIX.domains);

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
  await Promise.all([...(opened.get(rt)?.values() ?? [])].map((queue) => queue.close()));
  opened.delete(rt);
}

export const ERASE_QUEUE = 'erase';

/** Erases a space whose closure was confirmed for `closes_at` (the job re-checks it still is). */
export interface EraseJob {
  space_id: string;
  closes_at: number;
}

export const eraseQueue = (rt: Runtime): Queue<EraseJob> => queueOf(rt, ERASE_QUEUE, QUEUE_PREFIX.erase);

/** One job per confirmation (its time in the id): a cancelled then confirmed-again closure gets a new one. */
export const eraseJobId = (spaceId: string, closesAt: number): string => `erase-${spaceId}-${closesAt}`;

/** The erasure at `closesAt`, delayed on the injected clock; retried a few times if Redis fails meanwhile. */
export async function scheduleErase(rt: Runtime, spaceId: string, closesAt: number): Promise<void> {
  await eraseQueue(rt).add(
    'erase',
    { space_id: spaceId, closes_at: closesAt },
    {
      jobId: eraseJobId(spaceId, closesAt),
      delay: Math.max(0, closesAt - rt.clock.now()),
      attempts: 10,
      backoff: { type: 'exponential', delay: 60_000 },
      removeOnComplete: true,
      removeOnFail: 1000,
    },
  );
}

export const SEND_QUEUE = 'send';

/** Wakes the delivery worker for one inbox when its next departure is due. */
export interface WakeJob {
  space_id: string;
  inbox_id: string;
}

export const sendQueue = (rt: Runtime): Queue<WakeJob> => queueOf(rt, SEND_QUEUE, QUEUE_PREFIX.send);

/**
 * A delayed job at the inbox's next departure; one job per (inbox, slot), so repeated wakes for one
 * slot are one job. The delay is counted on the injected clock: tests drive the worker themselves.
 */
export async function wakeInbox(rt: Runtime, spaceId: string, inboxId: string, slot: number): Promise<void> {
  await sendQueue(rt).add(
    'wake',
    { space_id: spaceId, inbox_id: inboxId },
    { jobId: `wake-${spaceId}-${inboxId}-${slot}`, delay: Math.max(0, slot - rt.clock.now()), removeOnComplete: true, removeOnFail: 1000 },
  );
}

/** Waiting and delayed jobs of each queue: a few counts per queue, a bounded cost at every scrape. */
export async function queueDepths(rt: Runtime): Promise<QueueDepths> {
  const queues: [string, Queue][] = [
    [SEND_QUEUE, sendQueue(rt) as Queue],
    [DOMAIN_QUEUE, domainQueue(rt) as Queue],
    [ERASE_QUEUE, eraseQueue(rt) as Queue],
  ];
  const counts = await Promise.all(queues.map(([, queue]) => queue.getJobCounts('waiting', 'delayed')));
  return Object.fromEntries(queues.map(([name], i) => [name, { waiting: counts[i]!.waiting ?? 0, delayed: counts[i]!.delayed ?? 0 }]));
}
