/**
 * BullMQ queues, on one connection of their own per runtime (a queue only writes; workers block on their own).
 * Each queue has a hash-tagged prefix (src/redis/keys.ts), so its keys share one Cluster slot.
 */
import { Queue, Worker, type Job } from 'bullmq';
import { Cluster } from 'ioredis';
import { BLOCKING_OPTIONS, duplicateConnection, type RedisClient } from './connect.js';
import type { QueueDepths } from '../metrics.js';
import calculateSlot from 'cluster-key-slot';
import { CLUSTER_SLOTS, QUEUE_PREFIX, SEND_QUEUE_PREFIXES, SEND_QUEUES, spaceSlot } from './keys.js';
import type { Runtime } from '../runtime.js';

/**
 * The queues, one per name, and the connection they share, per runtime connection (a runtime derived
 * with another clock or config shares them): made on first use, closed by closeQueues.
 */
const opened = new WeakMap<RedisClient, { connection: RedisClient; byName: Map<string, Queue> }>();

/** A queue: its name, and its hash-tagged prefix (QUEUE_PREFIX, or one of SEND_QUEUE_PREFIXES for `send`). */
export interface QueueSpec {
  name: string;
  prefix: string;
}

const named = (name: keyof typeof QUEUE_PREFIX): QueueSpec => ({ name, prefix: QUEUE_PREFIX[name] });

function queueOf<T>(rt: Runtime, { name, prefix }: QueueSpec): Queue<T> {
  let open = opened.get(rt.redis);
  // Not the runtime's connection: BullMQ defines its scripts (64) on the connection it is given, and
  // ioredis copies every defined command onto each pipeline object, which made every tool's pipelines
  // cost 43 µs to create instead of 3.6 once a front end had woken an inbox (BENCHMARKS.md, "Sending").
  if (!open) {
    const connection = duplicateConnection(rt.redis);
    // It ends with the runtime's: a process that closes its connection without closeQueues still exits.
    rt.redis.once('end', () => connection.disconnect());
    opened.set(rt.redis, (open = { connection, byName: new Map() }));
  }
  let queue = open.byName.get(prefix);
  if (!queue) {
    queue = new Queue(name, { connection: open.connection, prefix });
    // Without a listener BullMQ prints the error's bare stack on stderr, outside the service's log.
    queue.on('error', (error: Error) => rt.log.warn('queue connection error', { queue: prefix, error: error.message }));
    open.byName.set(prefix, queue);
  }
  return queue as unknown as Queue<T>;
}

/** How often a domain's records are checked again, by status (docs/contract.md, Part 8). */
const RECHECK_EVERY_MS = { verified: 24 * 3600 * 1000, suspended: 3600 * 1000 } as const;

export interface RecheckJob {
  space_id: string;
  domain_id: string;
}

export const domainQueue = (rt: Runtime): Queue<RecheckJob> => queueOf(rt, named('domains'));

/** One scheduler per domain; BullMQ ids may not hold `:`. */
export const recheckSchedulerId = (spaceId: string, domainId: string): string => `recheck-${spaceId}-${domainId}`;

/**
 * Sets the domain's recheck after a change of status: daily when verified, hourly when suspended,
 * none while pending (nothing changes until verify_domain). The first run comes one period from now,
 * by the system clock: BullMQ times its jobs with it, not with the injected one.
 */
export async function scheduleDomainRecheck(
  rt: Runtime,
  spaceId: string,
  domainId: string,
  status: 'pending' | 'verified' | 'suspended',
): Promise<void> {
  if (status === 'pending') return cancelDomainRecheck(rt, spaceId, domainId);
  const every = RECHECK_EVERY_MS[status];
  await domainQueue(rt).upsertJobScheduler(
    recheckSchedulerId(spaceId, domainId),
    { every, startDate: Date.now() + every },
    {
      name: 'recheck',
      data: { space_id: spaceId, domain_id: domainId },
      opts: { removeOnComplete: 100, removeOnFail: 500 },
    },
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

export const eraseQueue = (rt: Runtime): Queue<EraseJob> => queueOf(rt, named('erase'));

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
const BLOB_SWEEP_EVERY_MS = 3600 * 1000;

const blobQueue = (rt: Runtime): Queue<Record<string, never>> => queueOf(rt, named('blobs'));

/** The hourly sweep; upserted by every worker at start, so the deployment has exactly one. */
export async function scheduleBlobSweep(rt: Runtime): Promise<void> {
  await blobQueue(rt).upsertJobScheduler(
    'blob-sweep',
    { every: BLOB_SWEEP_EVERY_MS },
    { name: 'sweep', data: {}, opts: { removeOnComplete: 10, removeOnFail: 100 } },
  );
}

/** Wakes the delivery worker for one inbox when its next departure is due. */
export interface WakeJob {
  space_id: string;
  inbox_id: string;
}

/** The wake-up queues, each on its own slot (SEND_QUEUE_PREFIXES); workers take from all of them. */
export const SEND_QUEUE_SPECS: readonly QueueSpec[] = SEND_QUEUE_PREFIXES.map((prefix) => ({ name: 'send', prefix }));
const SEND_QUEUE_SLOTS = SEND_QUEUE_PREFIXES.map((prefix) => calculateSlot(prefix));

/**
 * The queue of a space's wake-ups: one on the node that holds the space's slot when the Cluster's map
 * tells one (the one of its slot range first), so a node's failover delays only its own spaces'
 * wake-ups; else the queue of its slot range. A change of the map leaves earlier jobs where they are:
 * workers take from every queue.
 */
function sendQueueIndex(rt: Runtime, spaceId: string): number {
  const slot = spaceSlot(spaceId);
  const byRange = Math.floor((slot * SEND_QUEUES) / CLUSTER_SLOTS);
  if (!(rt.redis instanceof Cluster)) return byRange;
  const owners = rt.redis.slots;
  const owner = owners[slot]?.[0];
  if (!owner || owners[SEND_QUEUE_SLOTS[byRange]!]?.[0] === owner) return byRange;
  const onNode = SEND_QUEUE_SLOTS.findIndex((queueSlot) => owners[queueSlot]?.[0] === owner);
  return onNode >= 0 ? onNode : byRange;
}

export const sendQueue = (rt: Runtime, spaceId: string): Queue<WakeJob> =>
  queueOf(rt, SEND_QUEUE_SPECS[sendQueueIndex(rt, spaceId)]!);

/** 1 s, 2 s, 4 s, 8 s, 16 s: a Redis restart is over well within them; past them the sweeper takes over. */
const WAKE_ATTEMPTS = 6;

/**
 * A delayed job at the inbox's next departure; one job per (inbox, slot), so repeated wakes for one
 * slot are one job. The delay is counted on the injected clock: tests drive the worker themselves.
 */
export async function wakeInbox(rt: Runtime, spaceId: string, inboxId: string, slot: number): Promise<void> {
  await sendQueue(rt, spaceId).add(
    'wake',
    { space_id: spaceId, inbox_id: inboxId },
    // A wake that fails (Redis away mid-delivery) is tried again: its inbox's later departures wait on it.
    {
      jobId: `wake-${spaceId}-${inboxId}-${slot}`,
      delay: Math.max(0, slot - rt.clock.now()),
      attempts: WAKE_ATTEMPTS,
      backoff: { type: 'exponential', delay: 1000 },
      removeOnComplete: true,
      removeOnFail: 1000,
    },
  );
}

/** A worker blocks on its own connection, which BullMQ wants without a per-request retry cap or command timeout. */
export const workerConnection = (redis: RedisClient): RedisClient => duplicateConnection(redis, BLOCKING_OPTIONS);

export interface QueueWorker<T> {
  worker: Worker<T>;
  /** Stops taking jobs, waits for the running ones, closes the worker's connection. */
  close(): Promise<void>;
}

/** A BullMQ worker of one of our queues (a name of QUEUE_PREFIX, or a spec), on a blocking connection of its own. */
export function queueWorker<T>(
  rt: Runtime,
  queue: keyof typeof QUEUE_PREFIX | QueueSpec,
  run: (job: Job<T>) => Promise<unknown>,
  concurrency: number,
): QueueWorker<T> {
  const { name, prefix } = typeof queue === 'string' ? named(queue) : queue;
  const connection = workerConnection(rt.redis);
  const worker = new Worker<T>(name, run, { connection, prefix, concurrency });
  // A failover or a restart of Redis shows here (BullMQ printed it as a bare stack on stderr without a listener).
  worker.on('error', (error: Error) => rt.log.error('queue worker error', { queue: prefix, error: error.message }));
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
    ...SEND_QUEUE_SPECS.map((spec): [string, Queue] => ['send', queueOf(rt, spec)]),
    ['domains', domainQueue(rt) as Queue],
    ['erase', eraseQueue(rt) as Queue],
  ];
  const counts = await Promise.all(queues.map(([, queue]) => queue.getJobCounts('waiting', 'delayed')));
  const depths: QueueDepths = {};
  queues.forEach(([name], i) => {
    const depth = (depths[name] ??= { waiting: 0, delayed: 0 });
    depth.waiting += counts[i]!.waiting ?? 0;
    depth.delayed += counts[i]!.delayed ?? 0;
  });
  return depths;
}
