/**
 * The circuit breaker (docs/contract.md, Decision 4): over an inbox's last 7 days, with at least 20 sent, hard bounces
 * above 5 % or complaints above 0.3 % (or 2 complaints) suspend it. Its figures are the daily counters of
 * the inbox's slots hash: `sent:<day>` (lua/message/finishDelivery), `bounced:<day>`
 * (lua/message/recordBounce, and finishDelivery for a recipient refused at RCPT) and `complained:<day>`
 * (lua/message/recordComplaint). Judged after each bounce or complaint; suspension is idempotent.
 */
import { DateTime } from 'luxon';
import type { Runtime } from '../src/runtime.js';
import { spaceKeys } from '../src/redis/keys.js';
import { PARIS, type Reason } from '../src/texts.js';
import { MailboxError } from '../src/errors.js';
import { suspendInbox, type BreakerFigures } from './inbox.js';

export const BREAKER = {
  window_days: 7,
  min_sent: 20,
  bounce_rate_limit: 0.05,
  complaint_rate_limit: 0.003,
  complaint_count_limit: 2,
} as const;

/** The last 7 Paris days' figures of an inbox, today included. */
export async function breakerFigures(rt: Runtime, spaceId: string, inboxId: string): Promise<BreakerFigures> {
  // Calendar steps, not 24 h ones: around a change of time a Paris day lasts 23 or 25 hours.
  const today = DateTime.fromMillis(rt.clock.now(), { zone: PARIS });
  const days = Array.from({ length: BREAKER.window_days }, (_, i) => today.minus({ days: i }).toISODate()!);
  const fields = days.flatMap((day) => [`sent:${day}`, `bounced:${day}`, `complained:${day}`]);
  const values = (await rt.redis.hmget(spaceKeys(spaceId).inboxSlots(inboxId), ...fields)).map((v) => Number(v ?? 0));
  const sum = (offset: number) => values.filter((_, i) => i % 3 === offset).reduce((a, b) => a + b, 0);
  const sent = sum(0);
  const bounced = sum(1);
  const complaints = sum(2);
  return {
    sent_7d: sent,
    bounced_7d: bounced,
    complaints_7d: complaints,
    bounce_rate: sent ? bounced / sent : 0,
    complaint_rate: sent ? complaints / sent : 0,
  };
}

/** Why to suspend (a code of REASONS, src/texts.ts), or null while the figures are within bounds. */
function tripReason(f: BreakerFigures): Extract<Reason, 'bounce_rate' | 'complaint_rate'> | null {
  if (f.sent_7d < BREAKER.min_sent) return null;
  if (f.bounce_rate > BREAKER.bounce_rate_limit) return 'bounce_rate';
  if (f.complaint_rate > BREAKER.complaint_rate_limit || f.complaints_7d >= BREAKER.complaint_count_limit)
    return 'complaint_rate';
  return null;
}

/**
 * Judges an inbox after a bounce or a complaint; true when this call suspended it. A deleted inbox
 * cannot be suspended: its late reports are recorded, nothing more (the MTA sending them still gets 250).
 */
export async function judgeInbox(rt: Runtime, spaceId: string, inboxId: string): Promise<boolean> {
  const figures = await breakerFigures(rt, spaceId, inboxId);
  const reason = tripReason(figures);
  if (reason === null) return false;
  try {
    return await suspendInbox(rt, spaceId, inboxId, reason, figures);
  } catch (error) {
    if (error instanceof MailboxError && error.code === 'not_found') return false;
    throw error;
  }
}
