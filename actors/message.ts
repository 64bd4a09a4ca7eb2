/**
 * Messages: outbound ones created here (send_email, reply_to_thread), queued for a departure slot or
 * held as drafts; inbound ones arrive over SMTP. A message is a hash under the space tag; the queue
 * decision is lua/message/createOutbound, one atomic script.
 */
import type { Runtime } from '../src/runtime.js';
import { blobSetMember } from '../src/blobs/store.js';
import { globalKeys, spaceKeys } from '../src/redis/keys.js';
import { execAll } from '../src/redis/pipeline.js';
import { iso } from '../src/clock.js';
import { planOf } from '../src/config.js';
import { requireMasterKey } from '../src/crypto.js';
import { MailboxError } from '../src/errors.js';
import { plannedIntervals } from '../src/sending/plan.js';
import { sendRefusal } from '../src/mail/filters.js';
import { nextParisMidnight, parisDay } from '../src/texts.js';
import { sha256Hex } from '../src/secrets.js';
import { wakeInbox } from '../src/redis/queues.js';
import { readClaim } from './claims.js';
import { deadAddress } from './dead-addresses.js';
import { readFilters } from './filter.js';
import { prepareEvent } from './events.js';
import { lineArgs, prepareLine } from './journal.js';
import { actorOf, type Access } from './space.js';
import { threadView } from './thread.js';
import { indexing } from './search.js';
import { attachmentsOf, storeBodies, storeOutgoingFiles, type OutgoingFile } from './attachments.js';
import type { AddressClaim } from './claims.js';
import { campaignRef, inboxView, liveInboxView, readInbox, readMessage, blankMessage, blankThread, keepsMessageField, keepsThreadField, MESSAGE_ID_HEADER_FIELDS, messageIdHeaderOf, outboundMessageIdHeader, readThread, readThreadIds, storedPairs, type StoredInbox, type StoredMessage, type StoredThread } from './records.js';
import type { InboxView, MessageView, ThreadView } from '../src/records.js';

export function messageView(message: StoredMessage): MessageView {
  return {
    id: message.id,
    thread_id: message.thread_id,
    inbox_id: message.inbox_id,
    direction: message.direction,
    from: message.from,
    to: message.to,
    reply_to: message.reply_to || null,
    subject: message.subject,
    text: message.text,
    has_html: Boolean(message.html),
    auto_reply: message.auto_reply === '1',
    status: message.status,
    status_code: message.status_code || null,
    revision: message.revision,
    created_at: message.created_at,
    sent_at: message.sent_at || null,
    received_at: message.received_at || null,
    metadata: message.metadata ? (JSON.parse(message.metadata) as Record<string, unknown>) : null,
    attachments: attachmentsOf(message),
  };
}

/** What the caller asked, once validated (tools/send_email.ts, tools/reply_to_thread.ts). */
export interface OutboundSpec {
  inbox: StoredInbox;
  /** The thread answered; absent for a first message. */
  thread: StoredThread | null;
  to: string;
  to_name: string | null;
  subject: string;
  text: string;
  html: string | null;
  reply_to: string | null;
  metadata: Record<string, unknown> | null;
  requires_approval: boolean;
  test: boolean;
  send_after: number | null;
  idempotency_key: string | null;
  /** Hash of every parameter but the idempotency key (decisions.md 4: "same content"). */
  content_hash: string;
  /** Checked files (actors/attachments.ts): stored before the script, unless a dry run. */
  attachments: OutgoingFile[];
  dry_run: boolean;
  /** The campaign writing it (actors/campaign-feed.ts), else null. */
  campaign_id: string | null;
}

export interface OutboundResult {
  status: 'queued' | 'draft';
  estimated_send_at: string | null;
  replayed: boolean;
  message: MessageView | null;
  thread: ThreadView | null;
  inbox: InboxView;
}

export const DUPLICATE_WINDOW_MS = 30 * 24 * 3600 * 1000;
export const IDEMPOTENCY_TTL_MS = 7 * 24 * 3600 * 1000;
/** The loop guard (decisions.md 9): at most 3 messages out of a thread in 24 h without an answer. */
export const LOOP_MAX = 3;
export const LOOP_WINDOW_MS = 24 * 3600 * 1000;
/** drafts + queued of an inbox may not reach this many times its maximum daily quota. */
export const QUEUE_FACTOR = 10;

/** Reads an inbox the caller may use to send, with the recipient's platform and ownership facts. */
export async function sendingFacts(rt: Runtime, access: Access, inboxId: string, to: string) {
  // Every message carries an unsubscribe link signed under the master key: without it none could leave.
  requireMasterKey(rt.config);
  const own = access.key.inbox_ids;
  if (own && !own.includes(inboxId)) throw new MailboxError('not_found', null, { reason: "Cette boîte n'existe pas pour cette clé." });
  const [inbox, dead, claim, filters] = await Promise.all([
    readInbox(rt, access.space.id, inboxId),
    deadAddress(rt, to),
    readClaim<AddressClaim>(rt, globalKeys.address(to)),
    readFilters(rt, access.space.id),
  ]);
  if (!inbox || inbox.status === 'deleted') throw new MailboxError('not_found', null, { reason: "Cette boîte n'existe pas pour cette clé." });
  // Judged here, before the script: a filter added while a send is under way may let that one send
  // pass, as if it had come a moment earlier; nothing else depends on it (docs/tools.md, "Filters").
  const refusal = sendRefusal(filters, inboxId, to);
  if (refusal) throw new MailboxError('recipient_not_allowed', { filter_id: refusal.id });
  const ownInbox = claim?.value.space_id === access.space.id && claim.value.state === 'active';
  return { inbox, dead: dead !== null, ownInbox };
}

/** What lua/message/createOutbound answers when it does not refuse. */
interface OutboundReply {
  status: 'queued' | 'draft';
  slot: number | null;
  wake?: boolean;
  replayed?: boolean;
  message_id?: string;
  dry_run?: boolean;
  message_count?: number;
  inbox?: InboxFigures;
}

export async function createOutbound(rt: Runtime, access: Access, spec: OutboundSpec, facts: { dead: boolean; ownInbox: boolean }): Promise<OutboundResult> {
  const space = access.space;
  const keys = spaceKeys(space.id);
  const now = rt.clock.now();
  const inbox = spec.inbox;
  const human = spec.to === space.human_email;
  if (spec.test && !human && !facts.ownInbox) throw new MailboxError('test_recipient_not_allowed');
  if (facts.dead && !spec.test) throw new MailboxError('recipient_suppressed', { reason: 'adresse morte' });
  const draft = spec.requires_approval || space.approval_required;
  const dailyMax = planOf(rt.config, space.plan).daily_max;
  const earliest = Math.max(now, spec.send_after ?? 0);
  const mode = spec.thread ? 'reply' : 'first';
  const messageId = rt.ids.next('message');
  const threadId = spec.thread?.id ?? rt.ids.next('thread');
  const day = parisDay(now);
  const nowIso = iso(now);
  const references: string[] = spec.thread ? await threadReferences(rt, space.id, spec.thread) : [];
  // Durable before the script points to them; a dry run stores nothing (the files were checked).
  const attachments = spec.dry_run ? [] : await storeOutgoingFiles(rt, space.id, spec.attachments);
  const message = outboundMessage(access, spec, { messageId, threadId, nowIso, draft, references });
  message.attachments = attachments.length ? JSON.stringify(attachments) : '';
  const bodies = spec.dry_run ? null : await storeBodies(rt, space.id, message);
  // What the hash keeps (long bodies in the blob store); the answer shows `message`, bodies whole.
  const stored = bodies?.body_blobs ? { ...message, text: bodies.text, html: bodies.html, body_blobs: bodies.body_blobs } : message;
  const thread = spec.thread ? null : blankThread({ id: threadId, inbox_id: inbox.id, subject: spec.subject, contact: spec.to, contact_name: spec.to_name ?? '', campaign_id: spec.campaign_id ?? '', message_count: '1', last_direction: 'outbound', created_at: nowIso });
  const refs = { inbox_id: inbox.id, thread_id: threadId, message_id: messageId, contact: spec.to, ...campaignRef({ campaign_id: spec.campaign_id ?? '' }) };
  const kind = draft ? 'draft.created' : 'message.queued';
  const line = prepareLine(rt, kind, actorOf(access), refs, { to: spec.to, subject: spec.subject, test: spec.test, reply: mode === 'reply' });
  const event = messageEvent(rt, space.id, draft ? 'mail.draft.created' : 'mail.message.queued', message);
  const plan = departurePlan(rt, space.plan, inbox, earliest, mode === 'reply');
  // Without an idempotency key the script never reads this key: no hash to compute.
  const idemKey = keys.idempotency(spec.idempotency_key ? sha256Hex(spec.idempotency_key) : '-');
  const search = indexing(space.id, inbox.id, threadId, { subject: spec.subject, address: spec.to, name: spec.to_name ?? '', text: spec.text });
  const reply = await rt.scripts.run<OutboundReply>(
    'message/createOutbound',
    {
      space: keys.space, inbox: keys.inbox(inbox.id), domain: keys.domain(inbox.domain), inboxQueue: keys.inboxQueue(inbox.id),
      inboxSlots: keys.inboxSlots(inbox.id), inboxRecipients: keys.inboxRecipients(inbox.id), queue: keys.queue, drafts: keys.drafts,
      inboxDrafts: keys.inboxDrafts(inbox.id), keySent: keys.keySentOn(day), idempotency: idemKey, message: keys.message(messageId),
      thread: keys.thread(threadId), threadMessages: keys.threadMessages(threadId),
      threads: keys.threads, suppressions: keys.suppressions, events: keys.events, journal: keys.journal, journalIndex: keys.journalIndex,
      webhook: keys.webhook, blobs: keys.blobs, ...search.keys,
    },
    pushFields([
      now, nowIso, day, mode, messageId, threadId, access.key.id, access.key.daily_cap ?? 0,
      spec.to, `@${spec.to.split('@')[1]}`, flag(!human && !facts.ownInbox), flag(spec.test), flag(draft),
      spec.idempotency_key ? spec.content_hash : '', IDEMPOTENCY_TTL_MS, DUPLICATE_WINDOW_MS, QUEUE_FACTOR * dailyMax,
      plan.spacing_ms, plan.earliest, nextParisMidnight(now), LOOP_MAX, LOOP_WINDOW_MS, flag(spec.dry_run),
      plan.intervals, plan.reply_intervals, ...lineArgs(line), event, [...attachments.map((a) => a.sha256), ...(bodies?.shas ?? [])].map(blobSetMember).join(' '),
    ], stored, thread, search.words),
    search.wordKeys,
  );
  if (reply.replayed) return replay(rt, access, reply.message_id!);
  const slot = reply.slot ?? null;
  if (reply.dry_run) {
    return { status: reply.status, estimated_send_at: slot ? iso(slot) : null, replayed: false, message: null, thread: null, inbox: await liveInboxView(rt, space.plan, space.id, inbox) };
  }
  if (reply.wake && slot !== null) await wakeInbox(rt, space.id, inbox.id, slot);
  message.status = reply.status;
  message.slot = slot ? String(slot) : '';
  const threadNow = thread ?? { ...spec.thread!, message_count: String(reply.message_count), last_message_at: nowIso, last_direction: 'outbound' as const };
  return {
    status: reply.status,
    estimated_send_at: slot ? iso(slot) : null,
    replayed: false,
    message: messageView(message),
    thread: threadView(threadNow),
    inbox: figuresView(rt, space.plan, inbox, reply.inbox!),
  };
}

/** A new outbound message's hash; the script's reply sets its status and slot for the answer's view. */
function outboundMessage(access: Access, spec: OutboundSpec, at: { messageId: string; threadId: string; nowIso: string; draft: boolean; references: string[] }): StoredMessage {
  const inbox = spec.inbox;
  return blankMessage({
    id: at.messageId,
    thread_id: at.threadId,
    inbox_id: inbox.id,
    direction: 'outbound',
    status: at.draft ? 'draft' : 'queued',
    created_at: at.nowIso,
    received_at: '',
    from: inbox.address,
    from_name: inbox.display_name,
    to: spec.to,
    to_name: spec.to_name ?? '',
    reply_to: spec.reply_to ?? '',
    subject: spec.subject,
    text: spec.text,
    html: spec.html ?? '',
    metadata: spec.metadata ? JSON.stringify(spec.metadata) : '',
    send_after: spec.send_after ? iso(spec.send_after) : '',
    test: spec.test ? '1' : '0',
    key_id: access.key.id,
    message_id_header: outboundMessageIdHeader(at.messageId, inbox.domain),
    in_reply_to: at.references[at.references.length - 1] ?? '',
    references: JSON.stringify(at.references),
    campaign_id: spec.campaign_id ?? '',
  });
}

const flag = (value: boolean): string => (value ? '1' : '0');

/** The message fields createOutbound's caller writes: the script decides status, revision, slot and any_time. */
const SCRIPT_MESSAGE_FIELDS = [
  'id', 'thread_id', 'inbox_id', 'direction', 'from', 'from_name', 'to', 'to_name', 'reply_to', 'subject', 'text', 'html',
  'metadata', 'auto_reply', 'status_code', 'created_at', 'sent_at', 'received_at', 'send_after', 'test', 'key_id',
  'message_id_header', 'in_reply_to', 'references', 'attempts', 'attachments', 'body_blobs', 'campaign_id',
] as const satisfies readonly (keyof StoredMessage)[];

/**
 * Appends the count of the message's script fields kept (those not at their default: keepsMessageField)
 * and their field/value pairs, then, for a new thread, its kept fields as pairs, then the message's
 * search words. A loop over fixed names, not Object.entries().flat(): measurably slower on the hot path.
 */
function pushFields(args: (string | number)[], message: StoredMessage, thread: StoredThread | null, words: string) {
  const countAt = args.push(0) - 1;
  for (const name of SCRIPT_MESSAGE_FIELDS) if (keepsMessageField(message, name, message[name])) args.push(name, message[name]);
  args[countAt] = (args.length - countAt - 1) / 2;
  if (thread) args.push(...storedPairs(thread, keepsThreadField));
  args.push(words);
  return args;
}

export const spacingMs = (rt: Runtime): number => Math.round(rt.config.spacingSeconds * 1000 * (1 + Math.random() * 0.5));

/**
 * What the slot search needs (lua/includes/findSlot.lua): the window's open intervals with each
 * day's warm-up quota from `earliest`, the same for a reply that may leave at any hour when `reply`,
 * and this departure's spacing with its jitter drawn now (decisions.md 4).
 */
export function departurePlan(rt: Runtime, plan: string, inbox: StoredInbox, earliest: number, reply: boolean) {
  const dailyMax = planOf(rt.config, plan).daily_max;
  const createdAt = Date.parse(inbox.created_at);
  return {
    today: parisDay(rt.clock.now()),
    // Enough days for a full queue on top of today's departures (sent ones hold their day's quota).
    intervals: plannedIntervals(rt.config, createdAt, dailyMax, earliest, false, (QUEUE_FACTOR + 1) * dailyMax),
    reply_intervals: reply ? plannedIntervals(rt.config, createdAt, dailyMax, earliest, true, (QUEUE_FACTOR + 1) * dailyMax) : '',
    spacing_ms: spacingMs(rt),
    earliest,
  };
}

/** An inbox's counters and next departure as a script read them after its change (lua/includes/inboxFigures.lua). */
export interface InboxFigures {
  drafts: number;
  queued: number;
  /** ms; 0 when nothing waits. */
  next: number;
  /** Departures of the Paris day. */
  sent: number;
}

export function figuresView(rt: Runtime, plan: string, inbox: StoredInbox, figures: InboxFigures): InboxView {
  // The counters as the script left them, set on the view: a copy of the inbox's record would be copied field by field.
  const view = inboxView(rt.config, plan, inbox, rt.clock.now(), { next: figures.next || null, sentToday: figures.sent });
  view.drafts = figures.drafts;
  view.queued = figures.queued;
  return view;
}

/** The event of a message entering the queue or the drafts: stored with its ids, the rest read from the message (actors/events.ts). */
export function messageEvent(rt: Runtime, spaceId: string, type: 'mail.message.queued' | 'mail.draft.created', m: StoredMessage): string {
  return prepareEvent(
    rt,
    spaceId,
    type,
    {
      person: { email: m.to, name: m.to_name || null },
      refs: { inbox_id: m.inbox_id, thread_id: m.thread_id, message_id: m.id, ...campaignRef(m) },
    },
    { message_id: m.id, thread_id: m.thread_id, inbox_id: m.inbox_id },
    { message_id: m.id, kind: 'outbound' },
  );
}

async function threadReferences(rt: Runtime, spaceId: string, thread: StoredThread): Promise<string[]> {
  const keys = spaceKeys(spaceId);
  const ids = await readThreadIds(rt, spaceId, thread, (pipeline, set) => pipeline.zrange(set, '-20', '-1'), (all) => all.slice(-20));
  if (!ids.length) return [];
  const pipeline = rt.redis.pipeline();
  for (const id of ids) pipeline.hmget(keys.message(id), ...MESSAGE_ID_HEADER_FIELDS);
  return (await execAll<(string | null)[]>(pipeline)).map((fields, i) => messageIdHeaderOf(ids[i]!, fields)).filter(Boolean);
}

/** A message the calling key may see; others are `not_found`. */
export async function visibleMessage(rt: Runtime, access: Access, messageId: string): Promise<StoredMessage> {
  const message = await readMessage(rt, access.space.id, messageId);
  const own = access.key.inbox_ids;
  if (!message || (own && !own.includes(message.inbox_id))) {
    throw new MailboxError('not_found', null, { reason: "Ce message n'existe pas pour cette clé." });
  }
  return message;
}

/** The answer of a retried send: the message the idempotency key first created, as it is now. */
async function replay(rt: Runtime, access: Access, messageId: string): Promise<OutboundResult> {
  const message = await readMessage(rt, access.space.id, messageId);
  if (!message) throw new MailboxError('internal');
  const [thread, inbox] = await Promise.all([readThread(rt, access.space.id, message.thread_id), readInbox(rt, access.space.id, message.inbox_id)]);
  if (!thread || !inbox) throw new MailboxError('internal');
  const slot = Number(message.slot || 0);
  return {
    status: message.status === 'draft' ? 'draft' : 'queued',
    estimated_send_at: message.status === 'queued' && slot ? iso(slot) : null,
    replayed: true,
    message: messageView(message),
    thread: threadView(thread),
    inbox: await liveInboxView(rt, access.space.plan, access.space.id, inbox),
  };
}

export const contentHash = (input: Record<string, unknown>): string => {
  const { idempotency_key: _ignored, ...rest } = input;
  const canonical = JSON.stringify(Object.keys(rest).sort().map((key) => [key, rest[key]]));
  return sha256Hex(canonical);
};
