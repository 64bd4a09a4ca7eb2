/**
 * `mailbox admin migrate`: takes the store from its format to today's, one step at a time, the format
 * raised after each (src/storage/format.ts): stopped half-way, it resumes at the step it was in, which
 * finds done what it had done (steps are idempotent). Run with every other process stopped.
 */
import { globalKeys } from '../redis/keys.js';
import type { Runtime } from '../runtime.js';
import { formatTooNew, markFreshStore, STORAGE_FORMAT, storedFormat } from './format.js';
import { MIGRATIONS } from './migrations/index.js';

export interface StepDone {
  format: number;
  name: string;
  rewritten: number;
}

/** Runs the steps the store lacks, telling each one once done; answers the format it started from. */
export async function migrateStore(rt: Runtime, done: (step: StepDone) => void): Promise<number> {
  const from = await storedFormat(rt.redis);
  // An empty store has nothing to rewrite.
  if (from === null) return markFreshStore(rt.redis);
  if (from > STORAGE_FORMAT) throw new Error(formatTooNew(from));
  for (let format = from + 1; format <= STORAGE_FORMAT; format++) {
    const step = MIGRATIONS[format - 1]!;
    const rewritten = await step.run(rt);
    await rt.redis.set(globalKeys.storageFormat, format);
    done({ format, name: step.name, rewritten });
  }
  return from;
}
