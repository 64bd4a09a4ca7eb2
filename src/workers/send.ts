/**
 * The delivery worker. A BullMQ job wakes it for one inbox when that inbox's next departure is due;
 * it re-checks everything in one script (lua/message/takeDue), hands the message to the transport,
 * and records the outcome (lua/message/finishDelivery). A sweeper is the safety net: it reclaims
 * messages whose delivery lease expired and wakes inboxes whose wake-up job was lost.
 *
 * Guarantee (docs/operations.md): a queued message is never lost; it is sent at most once, except when
 * a worker dies after the peer's 250 and before the outcome is written, in which case it is sent again
 * once its lease expires (with the same Message-ID, so receivers can tell).
 */
import { Worker } from 'bullmq';
import { Cluster } from 'ioredis';
import { iso } from '../clock.js';
import { prepareEvent, type EventType } from '../../actors/events.js';
import { dailyQuota, readInbox, type StoredInbox } from '../../actors/inbox.js';
import { lineArgs, prepareLine, SERVICE_ACTOR } from '../../actors/journal.js';
import type { StoredMessage } from '../../actors/message.js';
import { deadAddress } from '../../actors/dead-addresses.js';
import { afterHardBounce } from '../../actors/reports.js';
import { verpReturnPath } from '../delivery/mime.js';
import { transportFor } from '../delivery/transports.js';
import { dkimKeyFor, serviceDkimKey } from '../delivery/dkim.js';
import type { DeliveryResult, OutgoingMail, Transport } from '../delivery/types.js';
import { unsubscribeLink } from '../delivery/unsubscribe.js';
import { QUEUE_PREFIX, spaceKeys } from '../redis/keys.js';
import { SEND_QUEUE, wakeInbox, type WakeJob } from '../queues.js';
import { blockingConnection } from './domains.js';
import type { Runtime } from '../runtime.js';
import { openIntervals } from '../sending/window.js';
import { parisDay } from '../texts.js';

/** How long a worker holds a message it is delivering before another may take it again. */
export const LEASE_MS = 5 * 60_000;
/** A suspended inbox or unverified domain is looked at again this much later. */
const HOLD_MS = 3600_000;
/** Temporary failures: 1 min, 5 min, 30 min, 2 h, 6 h, then `failed`. */
export const RETRY_DELAYS_MS = [60_000, 300_000, 1_800_000, 7_200_000, 21_600_000];

type Taken = { taken: StoredMessage; attempt: number; suppressed?: string };
type TakeReply = Taken | { wait: number } | { moved: true } | { dropped: true };

/** The window's state now: open, or when it opens next; and its first opening on a later Paris day. */
function windowAt(rt: Runtime, now: number): { open: boolean; next: number; nextDay: number } {
  const intervals = openIntervals(rt.config.sendWindow, now, 15);
  const later = intervals.find((interval) => parisDay(interval.start) !== parisDay(now));
  const nextDay = later?.start ?? now + HOLD_MS;
  const [first] = intervals;
  if (!first) return { open: false, next: now + HOLD_MS, nextDay };
  return { open: first.start <= now, next: first.start, nextDay };
}

async function outgoing(rt: Runtime, spaceId: string, inbox: StoredInbox, message: StoredMessage): Promise<OutgoingMail> {
  const keys = spaceKeys(spaceId);
  const [wrote, dkim] = await Promise.all([rt.redis.hget(keys.thread(message.thread_id), 'correspondent_wrote'), inbox.shared === '1' ? serviceDkimKey(rt, inbox.domain) : dkimKeyFor(rt, spaceId, inbox.domain)]);
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
    footer: wrote !== '1',
    returnPath: verpReturnPath(spaceId, message.id, inbox.domain),
    dkim,
    headers: { 'X-Mailbox-Message-Id': message.id },
  };
}

/** What an attempt ended in; `retry` waits for the next attempt. */
type Outcome = 'sent' | 'delivered' | 'failed' | 'rejected' | 'retry';

const EVENTS: Record<Outcome, EventType[]> = {
  sent: ['mail.message.sent'],
  delivered: ['mail.message.sent', 'mail.message.delivered'],
  failed: ['mail.message.failed'],
  rejected: ['mail.message.rejected'],
  retry: [],
};

/** The outcome of an attempt as the message's next state. */
function outcomeOf(transport: Transport, result: DeliveryResult, attempt: number): { outcome: Outcome; code: string } {
  if (result.ok) return { outcome: transport.kind === 'direct' ? 'delivered' : 'sent', code: '' };
  if (result.permanent) return { outcome: 'rejected', code: result.code };
  return { outcome: attempt > RETRY_DELAYS_MS.length ? 'failed' : 'retry', code: result.code };
}

async function finish(rt: Runtime, spaceId: string, message: StoredMessage, attempt: number, transport: Transport, result: DeliveryResult): Promise<void> {
  const keys = spaceKeys(spaceId);
  const now = rt.clock.now();
  const { outcome, code } = outcomeOf(transport, result, attempt);
  const subject = { person: { email: message.to, name: message.to_name || null }, refs: { inbox_id: message.inbox_id, thread_id: message.thread_id, message_id: message.id } };
  const data = { message_id: message.id, thread_id: message.thread_id, inbox_id: message.inbox_id, to: message.to, status_code: code || null, response: result.response.slice(0, 500), metadata: message.metadata ? JSON.parse(message.metadata) : null };
  const events = EVENTS[outcome].map((type) => prepareEvent(rt, spaceId, type, subject, data));
  const refs = { inbox_id: message.inbox_id, thread_id: message.thread_id, message_id: message.id, contact: message.to };
  const line = outcome === 'retry' ? null : prepareLine(rt, `message.${outcome}`, SERVICE_ACTOR, refs, { to: message.to, subject: message.subject, status_code: code || null });
  await rt.scripts.run(
    'message/finishDelivery',
    [keys.message(message.id), keys.sending, keys.inbox(message.inbox_id), keys.inboxQueue(message.inbox_id), keys.queue, keys.inboxSlots(message.inbox_id), keys.events, keys.journal, keys.journalIndex],
    [message.id, attempt, outcome, code, iso(now), now + (RETRY_DELAYS_MS[attempt - 1] ?? 0), parisDay(now), JSON.stringify(events), ...(line ? lineArgs(line) : ['', '', '[]'])],
  );
  // A recipient refused as unknown at RCPT is a hard bounce like a DSN's (actors/reports.ts).
  if (outcome === 'rejected' && code === 'recipient_unknown') await afterHardBounce(rt, spaceId, message.id, code);
}

/** A recipient suppressed since the message was queued: refused by us, never sent. */
const suppressedResult = (why: string): DeliveryResult => ({ ok: false, permanent: true, code: 'recipient_suppressed', response: `not sent: ${why}` });

/**
 * Why the taken message must not leave: its recipient went on the space's suppression list (the take
 * read it), or became dead platform-wide (a hard bounce in any space) since it was queued; else null.
 * A test send skips both, as when it was created.
 */
async function refusedRecipient(rt: Runtime, taken: Taken): Promise<string | null> {
  if (taken.suppressed) return `the recipient is on the space's suppression list (${taken.suppressed})`;
  if (taken.taken.test === '1' || !(await deadAddress(rt, taken.taken.to))) return null;
  return 'the address is dead: a hard bounce reported it unknown';
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
  const keys = spaceKeys(spaceId);
  for (let round = 0; round < 100; round++) {
    const [head] = await rt.redis.zrange(keys.inboxQueue(inboxId), '0', '0');
    if (!head) return null;
    const inbox = await readInbox(rt, spaceId, inboxId);
    if (!inbox) return null;
    const now = rt.clock.now();
    const window = windowAt(rt, now);
    const quota = await dailyQuota(rt, spaceId, inbox, now);
    const reply = await rt.scripts.run<TakeReply>(
      'message/takeDue',
      [keys.inbox(inboxId), keys.domain(inbox.domain), keys.inboxQueue(inboxId), keys.queue, keys.sending, keys.message(head), keys.suppressions, keys.inboxSlots(inboxId)],
      [head, now, now + LEASE_MS, window.open ? '1' : '0', window.next, HOLD_MS, parisDay(now), quota, window.nextDay],
    );
    if ('wait' in reply) return reply.wait;
    if (!('taken' in reply)) continue;
    dieAt('before_connect');
    const refused = await refusedRecipient(rt, reply);
    const result = refused ? suppressedResult(refused) : await transport.send(await outgoing(rt, spaceId, inbox, reply.taken));
    dieAt('after_accept');
    await finish(rt, spaceId, reply.taken, reply.attempt, transport, result);
  }
  return rt.clock.now();
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

async function sweepSpace(rt: Runtime, transport: Transport, spaceId: string): Promise<void> {
  const now = rt.clock.now();
  const keys = spaceKeys(spaceId);
  for (const id of await rt.redis.zrangebyscore(keys.sending, '-inf', now)) {
    const inboxId = await rt.redis.hget(keys.message(id), 'inbox_id');
    if (!inboxId) continue;
    await rt.scripts.run('message/reclaim', [keys.message(id), keys.sending, keys.inbox(inboxId), keys.inboxQueue(inboxId), keys.queue], [id, now]);
  }
  const due = await rt.redis.zrangebyscore(keys.queue, '-inf', now, 'LIMIT', 0, 500);
  const inboxes = new Set<string>();
  for (const id of due) {
    const inboxId = await rt.redis.hget(keys.message(id), 'inbox_id');
    if (inboxId) inboxes.add(inboxId);
  }
  for (const inboxId of inboxes) await deliverDue(rt, transport, spaceId, inboxId);
}

/** Spaces holding queued or in-flight messages, found by key pattern on every primary. */
async function spacesWithQueues(rt: Runtime): Promise<string[]> {
  const nodes = rt.redis instanceof Cluster ? rt.redis.nodes('master') : [rt.redis];
  const spaces = new Set<string>();
  for (const node of nodes) {
    for (const pattern of ['mbx:{spc_*}:queue', 'mbx:{spc_*}:sending']) {
      let cursor = '0';
      do {
        const [next, found] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
        cursor = next;
        for (const key of found) spaces.add(key.slice(key.indexOf('{') + 1, key.indexOf('}')));
      } while (cursor !== '0');
    }
  }
  return [...spaces];
}

export interface SendWorker {
  close(): Promise<void>;
}

/** The `worker` role's delivery part: BullMQ wake-ups, and the sweeper every 30 s. */
export function startSendWorker(rt: Runtime, options: { concurrency?: number; sweepMs?: number } = {}): SendWorker {
  const transport = transportFor(rt);
  const connection = blockingConnection(rt.redis);
  const worker = new Worker<WakeJob>(
    SEND_QUEUE,
    async (job) => {
      const next = await deliverDue(rt, transport, job.data.space_id, job.data.inbox_id);
      if (next !== null) await wakeInbox(rt, job.data.space_id, job.data.inbox_id, next);
    },
    { connection, prefix: QUEUE_PREFIX.send, concurrency: options.concurrency ?? 8 },
  );
  worker.on('failed', (job, error) => rt.log.error('delivery job failed', { job: job?.id, error: error.message }));
  let sweeping = false;
  const timer = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    sweep(rt, transport)
      .catch((error: Error) => rt.log.error('sweep failed', { error: error.message }))
      .finally(() => (sweeping = false));
  }, options.sweepMs ?? 30_000);
  return {
    async close() {
      clearInterval(timer);
      await worker.close();
      connection.disconnect();
    },
  };
}
