/**
 * The domain worker: runs the rechecks that the domains' job schedulers fire (daily when verified,
 * hourly when suspended). A failed resolution fails the job; the next run comes at the next period.
 */
import { recheckDomain } from '../../actors/domain.js';
import type { Runtime } from '../runtime.js';
import { queueWorker, type RecheckJob } from '../redis/queues.js';

export interface RunningWorker {
  close(): Promise<void>;
}

export function startDomainWorker(rt: Runtime): RunningWorker {
  const { worker, close } = queueWorker<RecheckJob>(
    rt,
    'domains',
    async (job) => {
      const domain = await recheckDomain(rt, job.data.space_id, job.data.domain_id);
      return domain ? { status: domain.status } : { removed: true };
    },
    4,
  );
  worker.on('failed', (job, error) => {
    rt.log.warn('domain recheck failed', {
      space_id: job?.data.space_id,
      domain_id: job?.data.domain_id,
      error: error.message,
    });
  });
  return { close };
}
