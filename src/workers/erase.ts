/**
 * The erasure worker: runs the delayed job a confirmed closure stored (actors/closure.ts), 48 h later.
 * The job re-checks that the closure still stands, so a cancelled one erases nothing.
 */
import { eraseSpace } from '../../actors/closure.js';
import type { Runtime } from '../runtime.js';
import { queueWorker, type EraseJob } from '../redis/queues.js';
import type { RunningWorker } from './domains.js';

export function startEraseWorker(rt: Runtime): RunningWorker {
  const { worker, close } = queueWorker<EraseJob>(
    rt,
    'erase',
    async (job) => ({ erased: await eraseSpace(rt, job.data.space_id, job.data.closes_at) }),
    1,
  );
  worker.on('failed', (job, error) => {
    rt.log.warn('space erasure failed; retried', { space_id: job?.data.space_id, error: error.message });
  });
  return { close };
}
