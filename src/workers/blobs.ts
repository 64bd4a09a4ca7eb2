/**
 * The blob sweep worker: every hour (one BullMQ job scheduler for the deployment), removes the blobs
 * no record points to, older than the grace period: what a crash between a blob write and its
 * record's write left (actors/attachments.ts).
 */
import { sweepOrphanBlobs } from '../../actors/attachments.js';
import type { Runtime } from '../runtime.js';
import { queueWorker, scheduleBlobSweep } from '../redis/queues.js';
import type { RunningWorker } from './domains.js';

export function startBlobWorker(rt: Runtime): RunningWorker {
  const { worker, close } = queueWorker<Record<string, never>>(
    rt,
    'blobs',
    async () => ({ removed: await sweepOrphanBlobs(rt) }),
    1,
  );
  worker.on('failed', (_job, error) =>
    rt.log.warn('blob sweep failed; the next one retries', { error: error.message }),
  );
  scheduleBlobSweep(rt).catch((error: Error) => rt.log.warn('blob sweep not scheduled', { error: error.message }));
  return { close };
}
