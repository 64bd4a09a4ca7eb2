/**
 * The delivery worker. A BullMQ job wakes it for one inbox when that inbox's next departure is due;
 * it takes the message through the delivery actor (actors/delivery.ts, which re-checks everything in
 * lua/message/takeDue), builds the mail and hands it to the transport, and reports the outcome to the
 * actor. A sweeper is the safety net, run at start and then every 30 s: it reclaims messages whose
 * delivery lease expired and wakes inboxes whose wake-up job was lost.
 *
 * Guarantee (docs/operations.md): a queued message is never lost; it is sent at most once, except when
 * a worker dies after the peer's 250 and before the outcome is written, in which case it is sent again
 * once its lease expires (with the same Message-ID, so receivers can tell).
 */
import { correspondentWrote, finishDelivery, outcomeOf, inboxesDue, reclaim, refusal, spacesWithQueues, takeDue, type Departure } from '../../actors/delivery.js';
import { verpReturnPath } from '../delivery/mime.js';
import { transportFor } from '../delivery/transports.js';
import { dkimKeyFor, serviceDkimKey } from '../delivery/dkim.js';
import type { OutgoingMail, Transport } from '../delivery/types.js';
import { attachmentFiles } from '../../actors/attachments.js';
import { unsubscribeLink } from '../delivery/unsubscribe.js';
import { asMailboxError } from '../errors.js';
import { countDeparture } from '../metrics.js';
import { queueWorker, wakeInbox, type WakeJob } from '../redis/queues.js';
import type { Runtime } from '../runtime.js';

/** The mail a departure leaves as (bench/delivery.mjs builds its floor's input with it too). */
export async function outgoing(rt: Runtime, spaceId: string, { message, inbox }: Departure): Promise<OutgoingMail> {
  const [wrote, dkim, files] = await Promise.all([
    correspondentWrote(rt, spaceId, message.thread_id),
    inbox.shared === '1' ? serviceDkimKey(rt, inbox.domain) : dkimKeyFor(rt, spaceId, inbox.domain),
    attachmentFiles(rt, spaceId, message),
  ]);
  return {
    id: message.id,
    messageIdHeader: message.message_id_header,
    from: { address: message.from, name: message.from_name || null },
    to: { address: message.to, name: message.to_name || null },
    replyTo: message.reply_to || null,
    subject: message.subject,
    text: message.text,
    html: message.html || null,
    inReplyTo: message.in_reply_to || null,
    references: JSON.parse(message.references || '[]') as string[],
    unsubscribe: unsubscribeLink(rt, spaceId, message.id, message.to, message.test === '1'),
    footer: !wrote,
    returnPath: verpReturnPath(spaceId, message.id, inbox.domain),
    dkim,
    headers: { 'X-Mailbox-Message-Id': message.id },
    attachments: files.map(({ view, content }) => ({ filename: view.filename, contentType: view.content_type, content })),
  };
}

/** Test seam for the crash tests: a worker process told to die at a step of a delivery does so. */
const dieAt = (step: string): void => {
  if (process.env.MAILBOX_FAULT_AT === step) process.exit(86);
};

/**
 * Delivers what is due for one inbox, one message after the other, and answers when to look again
 * (the next departure), or null when its queue is empty.
 */
export async function deliverDue(rt: Runtime, transport: Transport, spaceId: string, inboxId: string): Promise<number | null> {
  for (let round = 0; round < 100; round++) {
    const take = await takeDue(rt, spaceId, inboxId);
    if ('empty' in take) return null;
    if ('wait' in take) return take.wait;
    if (!('departure' in take)) continue;
    const { departure } = take;
    dieAt('before_connect');
    const result = (await refusal(rt, departure)) ?? (await transport.send(await outgoing(rt, spaceId, departure)));
    dieAt('after_accept');
    let tries = 0;
    const outcome = await whileRedisAway(() => (tries++, finishDelivery(rt, spaceId, departure, result, transport.kind === 'direct')));
    // Stale on a second try: the first write went through before its answer was lost; it counted this outcome.
    countDeparture(outcome === 'stale' && tries > 1 ? outcomeOf(result, departure.attempt, transport.kind === 'direct').outcome : outcome);
  }
  return rt.clock.now();
}

/** Waits before each new try of an outcome's write while Redis is away: about half a minute in all. */
const OUTCOME_RETRIES_MS = [500, 1000, 2000, 4000, 8000, 16_000];

/**
 * The outcome of a mail the peer already took must be written, or the message leaves again when its
 * lease ends: a write that found Redis away is tried again (finishDelivery is safe to run twice).
 */
async function whileRedisAway<T>(write: () => Promise<T>): Promise<T> {
  for (const waitMs of OUTCOME_RETRIES_MS) {
    try {
      return await write();
    } catch (error) {
      if (asMailboxError(error).code !== 'service_unavailable') throw error;
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }
  return write();
}

/**
 * The safety net: puts back messages whose lease expired, and delivers what is due in every space
 * (a wake-up job lost between a send and its scheduling delays a departure, never loses it).
 * `only` limits it to some spaces (a test's own, on a Redis other tests share).
 */
export async function sweep(rt: Runtime, transport: Transport, only?: string[]): Promise<void> {
  for (const spaceId of only ?? (await spacesWithQueues(rt))) {
    // One space's trouble (a key that no longer opens, a vanished inbox) must not stop the others.
    await sweepSpace(rt, transport, spaceId).catch((error: Error) =>
      rt.log.error('sweep of a space failed', { space_id: spaceId, error: error.message }),
    );
  }
}

/** Delivers what is due for one inbox, then schedules the wake-up of its next departure. */
async function deliverAndWake(rt: Runtime, transport: Transport, spaceId: string, inboxId: string): Promise<void> {
  const next = await deliverDue(rt, transport, spaceId, inboxId);
  if (next !== null) await wakeInbox(rt, spaceId, inboxId, next);
}

async function sweepSpace(rt: Runtime, transport: Transport, spaceId: string): Promise<void> {
  const now = rt.clock.now();
  await reclaim(rt, spaceId, now);
  // Also where an inbox's chain of wake-ups broke (a wake that failed or was lost): the sweep starts it again.
  for (const inboxId of await inboxesDue(rt, spaceId, now)) await deliverAndWake(rt, transport, spaceId, inboxId);
}

export interface SendWorker {
  close(): Promise<void>;
}

/** The `worker` role's delivery part: BullMQ wake-ups, and the sweeper at start then every 30 s. */
export function startSendWorker(rt: Runtime, options: { concurrency?: number; sweepMs?: number } = {}): SendWorker {
  const transport = transportFor(rt);
  const { worker, close } = queueWorker<WakeJob>(rt, 'send', (job) => deliverAndWake(rt, transport, job.data.space_id, job.data.inbox_id), options.concurrency ?? 8);
  worker.on('failed', (job, error) => rt.log.error('delivery job failed', { job: job?.id, error: error.message }));
  let sweeping: Promise<void> | null = null;
  const sweepNow = (): void => {
    sweeping ??= sweep(rt, transport)
      .catch((error: Error) => rt.log.error('sweep failed', { error: error.message }))
      .finally(() => (sweeping = null));
  };
  // At start too, not one interval later: a restarted worker takes at once what fell due, or whose
  // lease expired, while no worker ran.
  sweepNow();
  const timer = setInterval(sweepNow, options.sweepMs ?? 30_000);
  return {
    async close() {
      clearInterval(timer);
      await sweeping;
      await close();
    },
  };
}
