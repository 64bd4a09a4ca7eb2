/**
 * The domain worker: runs the rechecks that the domains' job schedulers fire (daily when verified,
 * hourly when suspended). A failed resolution fails the job; the next run comes at the next period.
 */
import { Cluster } from 'ioredis';
import { Worker } from 'bullmq';
import { recheckDomain } from '../../actors/domain.js';
import { BLOCKING_OPTIONS, type RedisClient } from '../redis/connect.js';
import { QUEUE_PREFIX } from '../redis/keys.js';
import type { Runtime } from '../runtime.js';
import { DOMAIN_QUEUE, type RecheckJob } from '../redis/queues.js';

export interface RunningWorker {
  close(): Promise<void>;
}

/** A worker blocks on its own connection, which BullMQ wants without a per-request retry cap or command timeout. */
export const blockingConnection = (redis: RedisClient): RedisClient =>
  redis instanceof Cluster
    ? redis.duplicate(undefined, { redisOptions: { ...redis.options.redisOptions, ...BLOCKING_OPTIONS } })
    : redis.duplicate(BLOCKING_OPTIONS);

export function startDomainWorker(rt: Runtime): RunningWorker {
  const connection = blockingConnection(rt.redis);
  const worker = new Worker<RecheckJob>(
    DOMAIN_QUEUE,
    async (job) => {
      const domain = await recheckDomain(rt, job.data.space_id, job.data.domain_id);
      return domain ? { status: domain.status } : { removed: true };
    },
    { connection, prefix: QUEUE_PREFIX.domains, concurrency: 4 },
  );
  worker.on('failed', (job, error) => {
    rt.log.warn('domain recheck failed', { space_id: job?.data.space_id, domain_id: job?.data.domain_id, error: error.message });
  });
  return {
    async close() {
      await worker.close();
      connection.disconnect();
    },
  };
}
