/**
 * The history mover: every minute, visits the spaces whose threads may have turned idle (the history
 * index, actors/history-index.ts) and moves at most ARCHIVE_THREADS_PER_MINUTE threads into the blob
 * store. Several workers may run it at once: each visit claims its space.
 */
import { moveDueThreads } from '../../actors/history-index.js';
import type { Runtime } from '../runtime.js';
import type { RunningWorker } from './domains.js';

const MINUTE_MS = 60_000;

export function startHistoryMover(rt: Runtime): RunningWorker {
  let moving: Promise<unknown> | null = null;
  const moveNow = (): void => {
    moving ??= moveDueThreads(rt, rt.config.history.threadsPerMinute)
      .catch((error: Error) => rt.log.error('history mover failed', { error: error.message }))
      .finally(() => (moving = null));
  };
  moveNow();
  const timer = setInterval(moveNow, MINUTE_MS);
  return {
    async close() {
      clearInterval(timer);
      await moving;
    },
  };
}
