/**
 * The service the history tests run (test/history/): an injected clock, sends at any time and without
 * spacing, ARCHIVE_AFTER_DAYS 30; and the send worker run until an inbox's queue is empty.
 */
import { readThread } from '../../actors/stored-records.js';
import { ManualClock } from '../../src/clock.js';
import type { Runtime } from '../../src/runtime.js';
import { createTransport } from '../../src/delivery/transports.js';
import { deliverDue } from '../../src/workers/send.js';
import { MASTER_KEY } from './domains.js';
import type { Sender } from './outbound.js';
import { startService } from './service.js';

export const DAY_MS = 86_400_000;

/** The history document a thread names while it is in history (its row packed in the name buckets), else null. */
export const historyRef = async (rt: Runtime, spaceId: string, threadId: string): Promise<string | null> =>
  (await readThread(rt, spaceId, threadId))?.history ?? null;

export async function startHistoryService(start: string) {
  const clock = new ManualClock(Date.parse(start));
  const svc = await startService({
    clock,
    env: { MAILBOX_MASTER_KEY: MASTER_KEY, SEND_WINDOW: 'always', SPACING_SECONDS: '0', ARCHIVE_AFTER_DAYS: '30' },
  });
  const outbox = createTransport(svc.rt);
  /** Runs the send worker until the inbox's queue is empty, following the clock. */
  async function deliverAll(s: Sender): Promise<void> {
    for (let next = await deliverDue(svc.rt, outbox, s.spaceId, s.inboxId); next !== null;) {
      clock.set(Math.max(clock.now(), next));
      next = await deliverDue(svc.rt, outbox, s.spaceId, s.inboxId);
    }
  }
  return { clock, svc, deliverAll };
}
