/**
 * Delivery, the Message actor's departures: taking the inbox's next due message under a lease
 * (lua/message/takeDue), recording what an attempt ended in with its events and journal line
 * (lua/message/finishDelivery), and putting back messages whose lease expired (lua/message/reclaim).
 * The delivery worker (src/workers/send.ts) only takes, builds and hands the mail to a transport, and
 * reports here; it reads nothing from Redis itself.
 */
import { iso } from '../src/clock.js';
import { MailboxError } from '../src/errors.js';
import type { DeliveryCode } from '../src/mail/delivery-codes.js';
import { spaceKeys } from '../src/redis/keys.js';
import { execAll } from '../src/redis/pipeline.js';
import type { Runtime } from '../src/runtime.js';
import { RETRY_DELAYS_MS } from '../src/sending/retries.js';
import { openIntervalsAt } from '../src/sending/window.js';
import { parisDay } from '../src/texts.js';
import { deadAddress } from './dead-addresses.js';
import { prepareEvent, type EventType } from './events.js';
import {
  campaignRef,
  readInbox,
  readMessage,
  readThread,
  storedMessage,
  warmupOf,
  withBodies,
  type StoredInbox,
  type StoredMessage,
} from './stored-records.js';
import * as messageLua from './bindings/message.generated.js';
import { lineArgs, prepareLine, SERVICE_ACTOR } from './journal.js';
import { afterHardBounce } from './reports.js';
import { cancelMessage } from './waiting.js';
import { copyAddresses } from './message.js';
import { copiesOf } from '../src/sending/recipients.js';

/** A suspended inbox or unverified domain is looked at again this much later. */
const HOLD_MS = 3600_000;

/**
 * The outcome of one attempt, as a transport reports it (src/delivery/transports.ts). `permanent` failures
 * are not retried; temporary ones are. `code` is one of DELIVERY_CODES (src/mail/delivery-codes.ts);
 * `response` is the server's reply (or the network error) as is.
 */
export type DeliveryResult =
  { ok: true; response: string } | { ok: false; permanent: boolean; code: DeliveryCode; response: string };

/** A message taken for delivery, leased to the taker until it reports. */
export interface Departure {
  message: StoredMessage;
  inbox: StoredInbox;
  attempt: number;
  /** The suppression entry's reason when the recipient went on the space's list since it was queued. */
  suppressed?: string;
  /**
   * Copies (cc, bcc) that went on the space's suppression list, or became dead platform-wide, since the
   * message was queued: left out of its envelope and its Cc header (src/workers/send.ts).
   */
  withheld: string[];
}

/**
 * What a take found: a departure; the time to look again (not due, window closed, inbox held);
 * `skipped` when the head changed, its inbox is gone or it was a campaign's message whose contact
 * replied (cancelled: look at the next one); `empty` queue.
 */
type Take = { departure: Departure } | { wait: number } | { skipped: true } | { empty: true };

/** The window's state now: open, or when it opens next; and its first opening on a later Paris day. */
function windowAt(rt: Runtime, now: number): { open: boolean; next: number; nextDay: number } {
  const intervals = openIntervalsAt(rt.config.sendWindow, now, 15);
  const later = intervals.find((interval) => parisDay(interval.start) !== parisDay(now));
  const nextDay = later?.start ?? now + HOLD_MS;
  const [first] = intervals;
  if (!first) return { open: false, next: now + HOLD_MS, nextDay };
  return { open: first.start <= now, next: first.start, nextDay };
}

/**
 * Takes the inbox's next queued message if it may leave now (lua/message/takeDue re-checks it all). A
 * campaign's message whose thread's correspondent wrote since it was queued (a follow-up written before
 * the reply) is cancelled instead (withdraw).
 */
export async function takeDue(rt: Runtime, spaceId: string, inboxId: string): Promise<Take> {
  const keys = spaceKeys(spaceId);
  const [head] = await rt.redis.zrange(keys.inboxQueue(inboxId), '0', '0');
  if (!head) return { empty: true };
  // The plan read now, with the inbox: a plan changed since the reservations applies to the quota.
  const [inbox, plan, [campaignId, threadId]] = await Promise.all([
    readInbox(rt, spaceId, inboxId),
    rt.redis.hget(keys.space, 'plan'),
    rt.redis.hmget(keys.message(head), 'campaign_id', 'thread_id'),
  ]);
  if (!inbox) return { empty: true };
  // A reply stops that contact's follow-ups (docs/contract.md, Decision 7), also one already queued when it came.
  if (campaignId && threadId && (await correspondentWrote(rt, spaceId, threadId))) {
    await withdraw(rt, spaceId, head);
    return { skipped: true };
  }
  const now = rt.clock.now();
  const window = windowAt(rt, now);
  // Under an unchanged plan never below the quota the slots were reserved with: steps only grow.
  const quota = warmupOf(rt.config, plan ?? 'none', inbox, now).step;
  const reply = await messageLua.takeDue(
    rt.scripts,
    {
      inbox: keys.inbox(inboxId),
      domain: keys.domain(inbox.domain),
      inboxQueue: keys.inboxQueue(inboxId),
      queue: keys.queue,
      sending: keys.sending,
      message: keys.message(head),
      suppressions: keys.suppressions,
      inboxSlots: keys.inboxSlots(inboxId),
    },
    {
      messageId: head,
      now,
      leaseEnd: now + rt.config.deliveryLeaseMs,
      windowOpen: window.open,
      nextOpening: window.next,
      heldWait: HOLD_MS,
      today: parisDay(now),
      quota,
      laterOpening: window.nextDay,
    },
  );
  if ('wait' in reply) return reply;
  if (!('taken' in reply)) return { skipped: true };
  const [message] = await withBodies(rt, spaceId, [storedMessage(head, reply.taken)]);
  return {
    departure: {
      message: message!,
      inbox,
      attempt: reply.attempt,
      suppressed: reply.suppressed,
      withheld: await withheldCopies(rt, spaceId, message!),
    },
  };
}

/**
 * Why the taken message must not leave: its recipient went on the space's suppression list (the take
 * read it), or became dead platform-wide (a hard bounce in any space) since it was queued; else null.
 * A test send skips both, as when it was created.
 */
export async function refusal(rt: Runtime, departure: Departure): Promise<DeliveryResult | null> {
  const refused = (why: string): DeliveryResult => ({
    ok: false,
    permanent: true,
    code: 'recipient_suppressed',
    response: `not sent: ${why}`,
  });
  if (departure.suppressed)
    return refused(`the recipient is on the space's suppression list (${departure.suppressed})`);
  if (departure.message.test === '1' || !(await deadAddress(rt, departure.message.to))) return null;
  return refused('the address is dead: a hard bounce reported it unknown');
}

/** The copies of a taken message that may no longer be written to (Departure.withheld); a test send keeps them all, as when it was created. */
async function withheldCopies(rt: Runtime, spaceId: string, message: StoredMessage): Promise<string[]> {
  const copies = [...copiesOf(message.cc), ...copiesOf(message.bcc)].map((m) => m.address);
  if (!copies.length || message.test === '1') return [];
  const suppressions = spaceKeys(spaceId).suppressions;
  const domainOf = (address: string) => `@${address.slice(address.lastIndexOf('@') + 1)}`;
  const [entries, dead] = await Promise.all([
    rt.redis.hmget(suppressions, ...copies.flatMap((address) => [address, domainOf(address)])),
    Promise.all(copies.map((address) => deadAddress(rt, address))),
  ]);
  return copies.filter((_, i) => entries[2 * i] !== null || entries[2 * i + 1] !== null || dead[i] !== null);
}

/**
 * Whether the correspondent of a thread ever wrote to us (an automatic reply does not count:
 * lua/message/receiveInbound): then no unsubscribe footer, and no campaign follow-up.
 */
export async function correspondentWrote(rt: Runtime, spaceId: string, threadId: string): Promise<boolean> {
  return (await readThread(rt, spaceId, threadId))?.correspondent_wrote === '1';
}

/**
 * Cancels a campaign's queued message whose contact wrote since it was queued, as cancel_message would
 * (its day's reservation given back; journal line `message.cancelled`, actor `service`), before it is
 * taken. The feeder's next visit of the contact stops it (`replied`). A message taken meanwhile by
 * another worker is no longer cancellable: it leaves (the same race as a reply a moment later).
 */
async function withdraw(rt: Runtime, spaceId: string, messageId: string): Promise<void> {
  const message = await readMessage(rt, spaceId, messageId);
  if (!message) return;
  await cancelMessage(rt, spaceId, SERVICE_ACTOR, message, { inboxDeleted: false }).catch((error: unknown) => {
    if (!(error instanceof MailboxError && error.code === 'not_cancellable')) throw error;
  });
}

/** What an attempt ended in; `retry` waits for the next attempt. */
export type Outcome = 'sent' | 'delivered' | 'failed' | 'rejected' | 'retry';

const EVENTS: Record<Outcome, EventType[]> = {
  sent: ['mail.message.sent'],
  delivered: ['mail.message.sent', 'mail.message.delivered'],
  failed: ['mail.message.failed'],
  rejected: ['mail.message.rejected'],
  retry: [],
};

/** The outcome of an attempt as the message's next state; a peer that is the recipient's own server (`direct`) delivered it. */
export function outcomeOf(
  result: DeliveryResult,
  attempt: number,
  direct: boolean,
): { outcome: Outcome; code: string } {
  if (result.ok) return { outcome: direct ? 'delivered' : 'sent', code: '' };
  if (result.permanent) return { outcome: 'rejected', code: result.code };
  return { outcome: attempt > RETRY_DELAYS_MS.length ? 'failed' : 'retry', code: result.code };
}

/**
 * Records what the departure's attempt ended in, with its events and journal line, and answers it. A
 * late report of a worker whose lease expired writes nothing (the script finds the attempt stale).
 */
export async function finishDelivery(
  rt: Runtime,
  spaceId: string,
  departure: Departure,
  result: DeliveryResult,
  direct: boolean,
): Promise<Outcome | 'stale'> {
  const { message, attempt } = departure;
  const keys = spaceKeys(spaceId);
  const now = rt.clock.now();
  const { outcome, code } = outcomeOf(result, attempt, direct);
  const subject = {
    person: { email: message.to, name: message.to_name || null },
    refs: { inbox_id: message.inbox_id, thread_id: message.thread_id, message_id: message.id, ...campaignRef(message) },
  };
  const copies = copyAddresses({ cc: copiesOf(message.cc), bcc: copiesOf(message.bcc) });
  const data = {
    message_id: message.id,
    thread_id: message.thread_id,
    inbox_id: message.inbox_id,
    to: message.to,
    ...copies,
    status_code: code || null,
    response: result.response.slice(0, 500),
    metadata: message.metadata ? JSON.parse(message.metadata) : null,
  };
  const events = EVENTS[outcome].map((type) => prepareEvent(rt, spaceId, type, subject, data));
  const refs = {
    inbox_id: message.inbox_id,
    thread_id: message.thread_id,
    message_id: message.id,
    contact: message.to,
    ...campaignRef(message),
  };
  const line =
    outcome === 'retry'
      ? null
      : prepareLine(rt, `message.${outcome}`, SERVICE_ACTOR, refs, {
          to: message.to,
          ...copies,
          subject: message.subject,
          status_code: code || null,
        });
  const reply = await messageLua.finishDelivery(
    rt.scripts,
    {
      message: keys.message(message.id),
      sending: keys.sending,
      inbox: keys.inbox(message.inbox_id),
      inboxQueue: keys.inboxQueue(message.inbox_id),
      queue: keys.queue,
      inboxSlots: keys.inboxSlots(message.inbox_id),
      events: keys.events,
      journal: keys.journal,
      journalIndex: keys.journalIndex,
    },
    {
      messageId: message.id,
      attempt,
      outcome,
      statusCode: code,
      nowIso: iso(now),
      retryAt: now + (RETRY_DELAYS_MS[attempt - 1] ?? 0),
      today: parisDay(now),
      events: JSON.stringify(events),
      ...(line ? lineArgs(line) : { lineId: '', lineJson: '', lineRefs: '[]' }),
    },
  );
  // A recipient refused as unknown at RCPT is a hard bounce like a DSN's (actors/reports.ts).
  if (outcome === 'rejected' && code === 'recipient_unknown') await afterHardBounce(rt, spaceId, message.id, code);
  return 'stale' in reply ? 'stale' : outcome;
}

/** Puts back in the queue the space's messages whose lease expired by `now` (their worker died or hung). */
export async function reclaim(rt: Runtime, spaceId: string, now: number): Promise<void> {
  const keys = spaceKeys(spaceId);
  const ids = await rt.redis.zrangebyscore(keys.sending, '-inf', now);
  for (const [id, inboxId] of zip(ids, await inboxesOf(rt, spaceId, ids))) {
    if (!inboxId) continue;
    await messageLua.reclaim(
      rt.scripts,
      {
        message: keys.message(id),
        sending: keys.sending,
        inbox: keys.inbox(inboxId),
        inboxQueue: keys.inboxQueue(inboxId),
        queue: keys.queue,
      },
      { messageId: id, now },
    );
  }
}

/** The space's inboxes with a departure due by `now` (of its first 500 due messages). */
export async function inboxesDue(rt: Runtime, spaceId: string, now: number): Promise<string[]> {
  const keys = spaceKeys(spaceId);
  const ids = await rt.redis.zrangebyscore(keys.queue, '-inf', now, 'LIMIT', 0, 500);
  return [...new Set((await inboxesOf(rt, spaceId, ids)).filter((id): id is string => id !== null))];
}

/** The inbox of each message, in one round trip. */
async function inboxesOf(rt: Runtime, spaceId: string, messageIds: string[]): Promise<(string | null)[]> {
  if (!messageIds.length) return [];
  const reads = rt.redis.pipeline();
  for (const id of messageIds) reads.hget(spaceKeys(spaceId).message(id), 'inbox_id');
  return execAll<string | null>(reads);
}

const zip = <A, B>(a: A[], b: B[]): [A, B][] => a.map((x, i) => [x, b[i]!]);
