/**
 * What bounces and complaints do to a space (docs/contract.md, Decision 4): a DSN marks the outbound message
 * `bounced` with its stable code; a hard bounce of an address that does not exist puts the address on
 * the platform's dead addresses and the space's suppressions; a complaint suppresses the address
 * (reason complaint, `mail.contact.complained`). Each is counted for the circuit breaker, then judged.
 */
import type { Runtime } from '../src/runtime.js';
import { copiesOf } from '../src/sending/recipients.js';
import { spaceKeys } from '../src/redis/keys.js';
import { campaignRef, directionOf } from './stored-records.js';
import { iso } from '../src/clock.js';
import type { DeliveryCode } from '../src/mail/delivery-codes.js';
import { parisDay } from '../src/texts.js';
import { judgeInbox } from './breaker.js';
import { markDeadAddress } from './dead-addresses.js';
import { prepareEvent } from './events.js';
import * as messageLua from './bindings/message.generated.js';
import * as suppressionLua from './bindings/suppression.generated.js';
import { lineArgs, prepareLine, SERVICE_ACTOR } from './journal.js';
import { addSuppressionKeys, type SuppressionEntry, type SuppressionReason } from './suppression.js';

/** Codes that say the address itself is gone (not this message, not a policy): dead for every space. */
const DEAD_CODES: readonly DeliveryCode[] = ['recipient_unknown'];

interface Target {
  to: string;
  to_name: string;
  /** Every address of the message, `to` first (cc and bcc after it). */
  recipients: string[];
  inbox_id: string;
  thread_id: string;
  metadata: unknown;
  campaign_id: string;
}

async function outboundTarget(rt: Runtime, spaceId: string, messageId: string): Promise<Target | null> {
  const [status, to, toName, inboxId, threadId, metadata, campaignId, cc, bcc] = await rt.redis.hmget(
    spaceKeys(spaceId).message(messageId),
    'status',
    'to',
    'to_name',
    'inbox_id',
    'thread_id',
    'metadata',
    'campaign_id',
    'cc',
    'bcc',
  );
  if (directionOf(status) !== 'outbound' || !to || !inboxId || !threadId) return null;
  const recipients = [to, ...[...copiesOf(cc ?? ''), ...copiesOf(bcc ?? '')].map((m) => m.address)];
  return {
    to,
    to_name: toName ?? '',
    recipients,
    inbox_id: inboxId,
    thread_id: threadId,
    metadata: metadata ? (JSON.parse(metadata) as unknown) : null,
    campaign_id: campaignId ?? '',
  };
}

/** Adds a suppression written by the service (a bounce or a complaint), with its journal line and event. */
async function suppress(
  rt: Runtime,
  spaceId: string,
  messageId: string,
  target: Target,
  reason: SuppressionReason,
  event: string,
  address = target.to,
): Promise<void> {
  const value = address.toLowerCase();
  const entry: SuppressionEntry = {
    id: rt.ids.next('suppression'),
    value,
    kind: 'address',
    reason,
    scope: 'space',
    source: messageId,
    created_at: iso(rt.clock.now()),
  };
  const refs = {
    inbox_id: target.inbox_id,
    thread_id: target.thread_id,
    message_id: messageId,
    contact: value,
    ...campaignRef(target),
  };
  const line = prepareLine(rt, reason === 'complaint' ? 'contact.complained' : 'contact.bounced', SERVICE_ACTOR, refs, {
    address: value,
  });
  await suppressionLua.addSuppression(rt.scripts, addSuppressionKeys(spaceId), {
    value,
    entry: JSON.stringify(entry),
    ...lineArgs(line),
    event,
  });
}

export interface Bounce {
  /** The address the report says failed (a message has several: `to`, cc, bcc); null or unknown: `to`. */
  recipient: string | null;
  status: string;
  code: DeliveryCode;
  hard: boolean;
  diagnostic: string | null;
}

/**
 * A DSN for one of our messages (named by its VERP address). False when the message is unknown or
 * not outbound. A hard bounce of a dead address also suppresses it here and everywhere.
 */
export async function recordBounce(rt: Runtime, spaceId: string, messageId: string, bounce: Bounce): Promise<boolean> {
  const target = await outboundTarget(rt, spaceId, messageId);
  if (!target) return false;
  const keys = spaceKeys(spaceId);
  const now = rt.clock.now();
  const named = bounce.recipient?.toLowerCase() ?? '';
  const recipient = target.recipients.includes(named) ? named : target.to;
  // A copy's bounce is told and counted; the message reached its `to` and keeps its status.
  const copy = recipient !== target.to;
  const refs = {
    inbox_id: target.inbox_id,
    thread_id: target.thread_id,
    message_id: messageId,
    ...campaignRef(target),
  };
  const person = copy ? { email: recipient, name: null } : { email: target.to, name: target.to_name || null };
  const line = prepareLine(
    rt,
    'message.bounced',
    SERVICE_ACTOR,
    { ...refs, contact: recipient },
    { to: recipient, status_code: bounce.code, status: bounce.status },
  );
  const event = prepareEvent(
    rt,
    spaceId,
    'mail.message.bounced',
    { person, refs },
    {
      message_id: messageId,
      thread_id: target.thread_id,
      inbox_id: target.inbox_id,
      to: target.to,
      recipient,
      status_code: bounce.code,
      status: bounce.status,
      hard: bounce.hard,
      diagnostic: bounce.diagnostic?.slice(0, 500) ?? null,
      metadata: target.metadata,
    },
  );
  const reply = await messageLua.recordBounce(
    rt.scripts,
    {
      message: keys.message(messageId),
      inboxSlots: keys.inboxSlots(target.inbox_id),
      events: keys.events,
      journal: keys.journal,
      journalIndex: keys.journalIndex,
    },
    { statusCode: bounce.code, hard: bounce.hard, copy, today: parisDay(now), ...lineArgs(line), event },
  );
  if (!reply.changed || !bounce.hard) return true;
  await afterHardBounce(rt, spaceId, messageId, bounce.code, recipient);
  return true;
}

/**
 * What follows a hard bounce, whether a DSN reported it or the recipient's server refused at RCPT
 * (actors/delivery.ts, which counted it already): a dead address is marked for every space and
 * suppressed in this one, then the inbox is judged.
 */
export async function afterHardBounce(
  rt: Runtime,
  spaceId: string,
  messageId: string,
  code: DeliveryCode,
  recipient?: string,
): Promise<void> {
  const found = await outboundTarget(rt, spaceId, messageId);
  if (!found) return;
  const address = (recipient ?? found.to).toLowerCase();
  if (DEAD_CODES.includes(code)) {
    await markDeadAddress(rt, address, {
      status_code: code,
      space_id: spaceId,
      message_id: messageId,
      at: iso(rt.clock.now()),
    });
    await suppress(rt, spaceId, messageId, found, 'bounce', '', address);
  }
  await judgeInbox(rt, spaceId, found.inbox_id);
}

/** A complaint (ARF) about one of our messages: counted once, the address suppressed, the inbox judged. */
export async function recordComplaint(
  rt: Runtime,
  spaceId: string,
  messageId: string,
  feedbackType: string,
): Promise<boolean> {
  const target = await outboundTarget(rt, spaceId, messageId);
  if (!target) return false;
  const keys = spaceKeys(spaceId);
  const now = rt.clock.now();
  await messageLua.recordComplaint(
    rt.scripts,
    { message: keys.message(messageId), inboxSlots: keys.inboxSlots(target.inbox_id) },
    { today: parisDay(now), nowIso: iso(now) },
  );
  const refs = {
    inbox_id: target.inbox_id,
    thread_id: target.thread_id,
    message_id: messageId,
    ...campaignRef(target),
  };
  const event = prepareEvent(
    rt,
    spaceId,
    'mail.contact.complained',
    { person: { email: target.to, name: target.to_name || null }, refs },
    {
      address: target.to.toLowerCase(),
      reason: 'complaint',
      feedback_type: feedbackType,
      metadata: target.metadata,
    },
  );
  await suppress(rt, spaceId, messageId, target, 'complaint', event);
  await judgeInbox(rt, spaceId, target.inbox_id);
  return true;
}
