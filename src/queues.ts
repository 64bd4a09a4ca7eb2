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
  await Promise.all([queues.get(rt)?.close(), sendQueues.get(rt)?.close(), eraseQueues.get(rt)?.close()]);
  queues.delete(rt);
  sendQueues.delete(rt);
  eraseQueues.delete(rt);
}

export const ERASE_QUEUE = 'erase';

/** Erases a space whose closure was confirmed for `closes_at` (the job re-checks it still is). */
export interface EraseJob {
  space_id: string;
  closes_at: number;
}

const eraseQueues = new WeakMap<Runtime, Queue<EraseJob>>();

export function eraseQueue(rt: Runtime): Queue<EraseJob> {
  let queue = eraseQueues.get(rt);
  if (!queue) {
    queue = new Queue<EraseJob>(ERASE_QUEUE, { connection: rt.redis, prefix: QUEUE_PREFIX.erase });
    eraseQueues.set(rt, queue);
  }
  return queue;
}

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

const sendQueues = new WeakMap<Runtime, Queue<WakeJob>>();

export function sendQueue(rt: Runtime): Queue<WakeJob> {
  let queue = sendQueues.get(rt);
  if (!queue) {
    queue = new Queue<WakeJob>(SEND_QUEUE, { connection: rt.redis, prefix: QUEUE_PREFIX.send });
    sendQueues.set(rt, queue);
  }
  return queue;
}

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
