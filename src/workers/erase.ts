/**
 * The erasure worker: runs the delayed job a confirmed closure stored (actors/closure.ts), 48 h later.
 * The job re-checks that the closure still stands, so a cancelled one erases nothing.
 */
import { Worker } from 'bullmq';
import { eraseSpace } from '../../actors/closure.js';
import { QUEUE_PREFIX } from '../redis/keys.js';
import type { Runtime } from '../runtime.js';
import { ERASE_QUEUE, type EraseJob } from '../redis/queues.js';
import { blockingConnection, type RunningWorker } from './domains.js';

export function startEraseWorker(rt: Runtime): RunningWorker {
  const connection = blockingConnection(rt.redis);
  const worker = new Worker<EraseJob>(
    ERASE_QUEUE,
    async (job) => ({ erased: await eraseSpace(rt, job.data.space_id, job.data.closes_at) }),
    { connection, prefix: QUEUE_PREFIX.erase, concurrency: 1 },
  );
  worker.on('failed', (job, error) => {
    rt.log.warn('space erasure failed; retried', { space_id: job?.data.space_id, error: error.message });
  });
  return {
    async close() {
      await worker.close();
      connection.disconnect();
    },
  };
}
