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
import {
  correspondentWrote,
  finishDelivery,
  outcomeOf,
  inboxesDue,
  reclaim,
  refusal,
  takeDue,
  type Departure,
} from '../../actors/delivery.js';
import { dueSpaces, DUE_SHARDS, nextDue, settleDue, type DueSpace } from '../../actors/due-index.js';
import { verpReturnPath } from '../delivery/mime.js';
import { transportFor } from '../delivery/transports.js';
import { dkimKeyFor, serviceDkimKey } from '../delivery/dkim.js';
import type { OutgoingMail, Transport } from '../delivery/types.js';
import { attachmentFiles } from '../../actors/attachments.js';
import { unsubscribeLink } from '../delivery/unsubscribe.js';
import { copiesOf, type Mailbox } from '../sending/recipients.js';
import { countDeparture } from '../metrics.js';
import { whileRedisAway } from '../redis/bounded.js';
import { queueWorker, SEND_QUEUE_SPECS, wakeInbox, type WakeJob } from '../redis/queues.js';
import { Cluster, type Redis } from 'ioredis';
import type { Runtime } from '../runtime.js';

/** The mail a departure leaves as (bench/delivery.mjs builds its floor's input with it too). @public */
export async function outgoing(
  rt: Runtime,
  spaceId: string,
  { message, inbox, withheld }: Departure,
): Promise<OutgoingMail> {
  const writable = (copies: Mailbox[]) => copies.filter((copy) => !withheld.includes(copy.address));
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
    cc: writable(copiesOf(message.cc)),
    bcc: writable(copiesOf(message.bcc)),
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
    attachments: files.map(({ view, content }) => ({
      filename: view.filename,
      contentType: view.content_type,
      content,
    })),
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
export async function deliverDue(
  rt: Runtime,
  transport: Transport,
  spaceId: string,
  inboxId: string,
): Promise<number | null> {
  for (let round = 0; round < 100; round++) {
    const take = await takeDue(rt, spaceId, inboxId);
    if ('empty' in take) return null;
    if ('wait' in take) return take.wait;
    if (!('departure' in take)) continue;
    const { departure } = take;
    dieAt('before_connect');
    const result = (await refusal(rt, departure)) ?? (await transport.send(await outgoing(rt, spaceId, departure)));
    dieAt('after_accept');
    // The outcome of a mail the peer already took must be written, or the message leaves again when its
    // lease ends: a write that found Redis away is tried again (finishDelivery is safe to run twice).
    let tries = 0;
    const outcome = await whileRedisAway(
      () => (tries++, finishDelivery(rt, spaceId, departure, result, transport.kind === 'direct')),
    );
    // Stale on a second try: the first write went through before its answer was lost; it counted this outcome.
    countDeparture(
      outcome === 'stale' && tries > 1
        ? outcomeOf(result, departure.attempt, transport.kind === 'direct').outcome
        : outcome,
    );
  }
  return rt.clock.now();
}

/**
 * The safety net: puts back messages whose lease expired, and delivers what is due in every space the
 * due index holds as due by now (actors/due-index.ts; a wake-up job lost between a send and its
 * scheduling delays a departure, never loses it), then settles each in the index. `only` limits it to
 * some spaces (a test's own, on a Redis other tests share).
 */
export async function sweep(rt: Runtime, transport: Transport, only?: string[]): Promise<void> {
  const now = rt.clock.now();
  for (let shard = 0; shard < DUE_SHARDS; shard++) {
    for (const due of await dueSpaces(rt, shard, now)) {
      if (only && !only.includes(due.spaceId)) continue;
      // One space's trouble (a key that no longer opens, a vanished inbox) must not stop the others.
      await sweepSpace(rt, transport, due).catch((error: Error) =>
        rt.log.error('sweep of a space failed', { space_id: due.spaceId, error: error.message }),
      );
    }
  }
}

/** Delivers what is due for one inbox, then schedules the wake-up of its next departure. */
async function deliverAndWake(rt: Runtime, transport: Transport, spaceId: string, inboxId: string): Promise<void> {
  const next = await deliverDue(rt, transport, spaceId, inboxId);
  if (next !== null) await wakeInbox(rt, spaceId, inboxId, next);
}

async function sweepSpace(rt: Runtime, transport: Transport, due: DueSpace): Promise<void> {
  const { spaceId } = due;
  const now = rt.clock.now();
  await reclaim(rt, spaceId, now);
  // Also where an inbox's chain of wake-ups broke (a wake that failed or was lost): the sweep starts it again.
  for (const inboxId of await inboxesDue(rt, spaceId, now)) await deliverAndWake(rt, transport, spaceId, inboxId);
  await settleDue(rt, due, await nextDue(rt, spaceId));
}

/** The primary of each slot, as the Cluster client's map has it (refreshed by ioredis every few seconds and at each redirection). */
const slotOwners = (cluster: Cluster): (string | undefined)[] => cluster.slots.map((nodes) => nodes?.[0]);

/** How long after a reconnection the due spaces are visited: the Cluster's slot map settles first. */
const RECONNECT_SWEEP_DELAY_MS = 500;

export interface SendWorker {
  close(): Promise<void>;
}

/** The `worker` role's delivery part: BullMQ wake-ups, and the sweeper at start then every 30 s. */
export function startSendWorker(rt: Runtime, options: { concurrency?: number; sweepMs?: number } = {}): SendWorker {
  const transport = transportFor(rt);
  // One worker per wake-up queue: a queue whose node fails over stops only its own spaces' wake-ups.
  const workers = SEND_QUEUE_SPECS.map((spec) => {
    const queue = queueWorker<WakeJob>(
      rt,
      spec,
      (job) => deliverAndWake(rt, transport, job.data.space_id, job.data.inbox_id),
      options.concurrency ?? 8,
    );
    queue.worker.on('failed', (job, error) =>
      rt.log.error('delivery job failed', { job: job?.id, error: error.message }),
    );
    return queue;
  });
  let sweeping: Promise<void> | null = null;
  let closed = false;
  const sweepNow = (): void => {
    if (closed) return;
    sweeping ??= sweep(rt, transport)
      .catch((error: Error) => rt.log.error('sweep failed', { error: error.message }))
      .finally(() => (sweeping = null));
  };
  // At start too, not one interval later: a restarted worker takes at once what fell due, or whose
  // lease expired, while no worker ran.
  sweepNow();
  const timer = setInterval(sweepNow, options.sweepMs ?? 30_000);
  // A wake-up written while a node was failing over may be lost with it: when the connection finds a
  // primary again (the Cluster's slot map changed owners: a promoted replica; a restarted single
  // Redis), the spaces due by now are visited at once instead of at the next sweep.
  const afterReconnect = (): void => void setTimeout(sweepNow, RECONNECT_SWEEP_DELAY_MS).unref();
  const cluster = rt.redis instanceof Cluster ? rt.redis : null;
  let owners = cluster ? slotOwners(cluster) : [];
  const refreshed = (): void => {
    const now = slotOwners(cluster!);
    if (now.some((owner, slot) => owner !== owners[slot])) afterReconnect();
    owners = now;
  };
  cluster?.on('refresh', refreshed);
  const single = cluster ? null : (rt.redis as Redis);
  let wasDown = false;
  const down = (): void => void (wasDown = true);
  const ready = (): void => {
    if (wasDown) afterReconnect();
    wasDown = false;
  };
  single?.on('close', down).on('ready', ready);
  return {
    async close() {
      closed = true;
      clearInterval(timer);
      cluster?.off('refresh', refreshed);
      single?.off('close', down).off('ready', ready);
      await sweeping;
      await Promise.all(workers.map((queue) => queue.close()));
    },
  };
}
