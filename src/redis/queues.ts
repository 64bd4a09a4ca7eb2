/**
 * BullMQ queues, on one connection of their own per runtime (a queue only writes; workers block on their own).
 * Each queue has a hash-tagged prefix (src/redis/keys.ts), so its keys share one Cluster slot.
 */
import { Queue, Worker, type Job } from 'bullmq';
import { Cluster, type RedisOptions } from 'ioredis';
import { BLOCKING_OPTIONS, type RedisClient } from './connect.js';
import type { QueueDepths } from '../metrics.js';
import { QUEUE_PREFIX } from './keys.js';
import type { Runtime } from '../runtime.js';

/**
 * The queues, one per name, and the connection they share, per runtime connection (a runtime derived
 * with another clock or config shares them): made on first use, closed by closeQueues.
 */
const opened = new WeakMap<RedisClient, { connection: RedisClient; byName: Map<string, Queue> }>();

function queueOf<T>(rt: Runtime, name: keyof typeof QUEUE_PREFIX): Queue<T> {
  let open = opened.get(rt.redis);
  // Not the runtime's connection: BullMQ defines its scripts (64) on the connection it is given, and
  // ioredis copies every defined command onto each pipeline object, which made every tool's pipelines
  // cost 43 µs to create instead of 3.6 once a front end had woken an inbox (BENCHMARKS.md, "Sending").
  if (!open) {
    const connection = duplicate(rt.redis);
    // It ends with the runtime's: a process that closes its connection without closeQueues still exits.
    rt.redis.once('end', () => connection.disconnect());
    opened.set(rt.redis, (open = { connection, byName: new Map() }));
  }
  let queue = open.byName.get(name);
  if (!queue) open.byName.set(name, (queue = new Queue(name, { connection: open.connection, prefix: QUEUE_PREFIX[name] })));
  return queue as unknown as Queue<T>;
}

/** How often a domain's records are checked again, by status (interface.md part 8). */
export const RECHECK_EVERY_MS = { verified: 24 * 3600 * 1000, suspended: 3600 * 1000 } as const;

export interface RecheckJob {
  space_id: string;
  domain_id: string;
}

export const domainQueue = (rt: Runtime): Queue<RecheckJob> => queueOf(rt, 'domains');

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

/** Closes the runtime's queues and their connection (not the runtime's, which the runtime owns). */
export async function closeQueues(rt: Runtime): Promise<void> {
  const open = opened.get(rt.redis);
  if (!open) return;
  opened.delete(rt.redis);
  await Promise.all([...open.byName.values()].map((queue) => queue.close()));
  open.connection.disconnect();
}

/** Erases a space whose closure was confirmed for `closes_at` (the job re-checks it still is). */
export interface EraseJob {
  space_id: string;
  closes_at: number;
}

export const eraseQueue = (rt: Runtime): Queue<EraseJob> => queueOf(rt, 'erase');

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

/** How often the orphan blobs are swept (actors/attachments.ts); one scheduler for the whole deployment. */
export const BLOB_SWEEP_EVERY_MS = 3600 * 1000;

export const blobQueue = (rt: Runtime): Queue<Record<string, never>> => queueOf(rt, 'blobs');

/** The hourly sweep; upserted by every worker at start, so the deployment has exactly one. */
export async function scheduleBlobSweep(rt: Runtime): Promise<void> {
  await blobQueue(rt).upsertJobScheduler('blob-sweep', { every: BLOB_SWEEP_EVERY_MS }, { name: 'sweep', data: {}, opts: { removeOnComplete: 10, removeOnFail: 100 } });
}

/** Wakes the delivery worker for one inbox when its next departure is due. */
export interface WakeJob {
  space_id: string;
  inbox_id: string;
}

export const sendQueue = (rt: Runtime): Queue<WakeJob> => queueOf(rt, 'send');

/** 1 s, 2 s, 4 s, 8 s, 16 s: a Redis restart is over well within them; past them the sweeper takes over. */
const WAKE_ATTEMPTS = 6;

/**
 * A delayed job at the inbox's next departure; one job per (inbox, slot), so repeated wakes for one
 * slot are one job. The delay is counted on the injected clock: tests drive the worker themselves.
 */
export async function wakeInbox(rt: Runtime, spaceId: string, inboxId: string, slot: number): Promise<void> {
  await sendQueue(rt).add(
    'wake',
    { space_id: spaceId, inbox_id: inboxId },
    // A wake that fails (Redis away mid-delivery) is tried again: its inbox's later departures wait on it.
    { jobId: `wake-${spaceId}-${inboxId}-${slot}`, delay: Math.max(0, slot - rt.clock.now()), attempts: WAKE_ATTEMPTS, backoff: { type: 'exponential', delay: 1000 }, removeOnComplete: true, removeOnFail: 1000 },
  );
}

/** A new connection to the same Redis (one node or a Cluster), its options overridden by `overrides`. */
const duplicate = (redis: RedisClient, overrides: Partial<RedisOptions> = {}): RedisClient =>
  redis instanceof Cluster ? redis.duplicate(undefined, { redisOptions: { ...redis.options.redisOptions, ...overrides } }) : redis.duplicate(overrides);

/** A worker blocks on its own connection, which BullMQ wants without a per-request retry cap or command timeout. */
export const blockingConnection = (redis: RedisClient): RedisClient => duplicate(redis, BLOCKING_OPTIONS);

export interface QueueWorker<T> {
  worker: Worker<T>;
  /** Stops taking jobs, waits for the running ones, closes the worker's connection. */
  close(): Promise<void>;
}

/** A BullMQ worker of one of our queues (its hash-tagged prefix), on a blocking connection of its own. */
export function queueWorker<T>(rt: Runtime, name: keyof typeof QUEUE_PREFIX, run: (job: Job<T>) => Promise<unknown>, concurrency: number): QueueWorker<T> {
  const connection = blockingConnection(rt.redis);
  const worker = new Worker<T>(name, run, { connection, prefix: QUEUE_PREFIX[name], concurrency });
  return {
    worker,
    async close() {
      await worker.close();
      connection.disconnect();
    },
  };
}

/** Waiting and delayed jobs of each queue: a few counts per queue, a bounded cost at every scrape. */
export async function queueDepths(rt: Runtime): Promise<QueueDepths> {
  const queues: [string, Queue][] = [
    ['send', sendQueue(rt) as Queue],
    ['domains', domainQueue(rt) as Queue],
    ['erase', eraseQueue(rt) as Queue],
  ];
  const counts = await Promise.all(queues.map(([, queue]) => queue.getJobCounts('waiting', 'delayed')));
  return Object.fromEntries(queues.map(([name], i) => [name, { waiting: counts[i]!.waiting ?? 0, delayed: counts[i]!.delayed ?? 0 }]));
}
