/**
 * Messages: outbound ones created here (send_email, reply_to_thread), queued for a departure slot or
 * held as drafts; inbound ones arrive over SMTP. A message is a hash under the space tag; the queue
 * decision is lua/message/createOutbound, one atomic script.
 */
import { bringBack, outsideHistory } from './history.js';
import type { Runtime } from '../src/runtime.js';
import { blobSetMember } from '../src/blobs/store.js';
import { globalKeys, spaceKeys } from '../src/redis/keys.js';
import { execAll } from '../src/redis/pipeline.js';
import { iso } from '../src/clock.js';
import { planOf } from '../src/config.js';
import { requireMasterKey } from '../src/crypto.js';
import { MailboxError, STORAGE_RETRY_AFTER_SECONDS } from '../src/errors.js';
import { within } from '../src/redis/bounded.js';
import { plannedIntervals } from '../src/sending/plan.js';
import { sendRefusal } from '../src/mail/filters.js';
import { copiesOf, storedCopies, type Mailbox } from '../src/sending/recipients.js';
import { threadSnippet } from '../src/mail/content.js';
import { nextParisMidnight, parisDay } from '../src/texts.js';
import { sha256Hex } from '../src/secrets.js';
import { wakeDeparture } from './due-index.js';
import { readClaim } from './claims.js';
import { deadAddress } from './dead-addresses.js';
import { readFilters } from './filter.js';
import { prepareEvent } from './events.js';
import * as messageLua from './bindings/message.generated.js';
import type { InboxFigures } from './bindings/shapes.js';
import { lineArgs, prepareLine } from './journal.js';
import { actorOf, keyNames, type Access } from './space.js';
import { threadView } from './thread.js';
import { afterIndexing, indexing } from './search.js';
import { attachmentsOf, storeBodies, storeOutgoingFiles, type OutgoingFile } from './attachments.js';
import type { AddressClaim } from './claims.js';
import {
  campaignRef,
  inboxView,
  liveInboxView,
  readInbox,
  readMessage,
  blankMessage,
  blankThread,
  keepsMessageField,
  keepsThreadField,
  MESSAGE_ID_HEADER_FIELDS,
  messageIdHeaderOf,
  outboundMessageIdHeader,
  readThread,
  readThreadIds,
  storedPairs,
  type StoredInbox,
  type StoredMessage,
  type StoredThread,
} from './stored-records.js';
import type { InboxView, MessageView, TextUnavailable, ThreadView } from '../src/record-schemas.js';

/** Who wrote the space's messages: an access's name by its id (keyNames); a removed access has none. */
export type WriterNames = ReadonlyMap<string, string>;

export function messageView(message: StoredMessage, writers: WriterNames): MessageView {
  return {
    id: message.id,
    thread_id: message.thread_id,
    inbox_id: message.inbox_id,
    direction: message.direction,
    from: message.from,
    to: message.to,
    cc: copiesOf(message.cc),
    bcc: copiesOf(message.bcc),
    reply_to: message.reply_to || null,
    subject: message.subject,
    text: message.text,
    ...(message.text_unavailable ? { text_unavailable: message.text_unavailable as TextUnavailable } : {}),
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
    in_reply_to_id: message.in_reply_to_id || null,
    written_by:
      message.direction === 'outbound' && message.key_id
        ? { key_id: message.key_id, name: writers.get(message.key_id) ?? null }
        : null,
    campaign_id: message.campaign_id || null,
  };
}

/** The views of messages, the names of the accesses that wrote them read in one round trip. */
export async function messageViews(rt: Runtime, spaceId: string, messages: StoredMessage[]): Promise<MessageView[]> {
  const writers = await keyNames(
    rt,
    spaceId,
    messages.map((message) => message.key_id),
  );
  return messages.map((message) => messageView(message, writers));
}

/** What the caller asked, once validated (tools/send_email.ts, tools/reply_to_thread.ts). */
export interface OutboundSpec {
  inbox: StoredInbox;
  /** The thread answered; absent for a first message. */
  thread: StoredThread | null;
  to: string;
  to_name: string | null;
  /** Copies, distinct from `to` and from each other (src/sending/recipients.ts distinctCopies). */
  cc: Mailbox[];
  bcc: Mailbox[];
  subject: string;
  text: string;
  html: string | null;
  reply_to: string | null;
  metadata: Record<string, unknown> | null;
  requires_approval: boolean;
  test: boolean;
  send_after: number | null;
  idempotency_key: string | null;
  /** Hash of every parameter but the idempotency key (docs/contract.md, Decision 4: "same content"). */
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

const DUPLICATE_WINDOW_MS = 30 * 24 * 3600 * 1000;
const IDEMPOTENCY_TTL_MS = 7 * 24 * 3600 * 1000;
/** The loop guard (docs/contract.md, Decision 9): at most 3 messages out of a thread in 24 h without an answer. */
const LOOP_MAX = 3;
const LOOP_WINDOW_MS = 24 * 3600 * 1000;
/** drafts + queued of an inbox may not reach this many times its maximum daily quota. */
const QUEUE_FACTOR = 10;

/** The copies' addresses a journal line or an event names, when there are some: `{ cc: [...], bcc: [...] }`. */
export function copyAddresses(message: { cc: Mailbox[]; bcc: Mailbox[] }): { cc?: string[]; bcc?: string[] } {
  return {
    ...(message.cc.length ? { cc: message.cc.map((m) => m.address) } : {}),
    ...(message.bcc.length ? { bcc: message.bcc.map((m) => m.address) } : {}),
  };
}

/** Every address a message goes to, `to` first, then its copies (cc, bcc). */
export const recipientsOf = (message: { to: string; cc: Mailbox[]; bcc: Mailbox[] }): string[] => [
  message.to,
  ...message.cc.map((m) => m.address),
  ...message.bcc.map((m) => m.address),
];

/**
 * Reads an inbox the caller may use to send, with each recipient's platform and ownership facts:
 * `dead` the addresses a hard bounce made dead platform-wide, `own` those of the space's live inboxes.
 * Every address passes the space's sending filters (`recipient_not_allowed` names the first refused).
 */
export async function sendingFacts(rt: Runtime, access: Access, inboxId: string, recipients: string[]) {
  // Every message carries an unsubscribe link signed under the master key: without it none could leave.
  requireMasterKey(rt.config);
  const own = access.key.inbox_ids;
  if (own && !own.includes(inboxId))
    throw new MailboxError('not_found', null, { reason: "Cette boîte n'existe pas pour cette clé." });
  // Shared facts, under other tags than the space's: a node of theirs failing over must not stop the
  // space's sends (docs/operations.md, "Redis Cluster failover"), so each is waited for a bounded time.
  const [inbox, dead, claims, filters] = await Promise.all([
    readInbox(rt, access.space.id, inboxId),
    Promise.all(recipients.map((address) => within(rt.config.sharedReadMs, deadAddress(rt, address)))),
    Promise.all(
      recipients.map((address) =>
        within(rt.config.sharedReadMs, readClaim<AddressClaim>(rt, globalKeys.address(address))),
      ),
    ),
    readFilters(rt, access.space.id),
  ]);
  if (!inbox || inbox.status === 'deleted')
    throw new MailboxError('not_found', null, { reason: "Cette boîte n'existe pas pour cette clé." });
  // Judged here, before the script: a filter added while a send is under way may let that one send
  // pass, as if it had come a moment earlier; nothing else depends on it (docs/tools.md, "Filters").
  for (const address of recipients) {
    const refusal = sendRefusal(filters, inboxId, address);
    if (refusal)
      throw new MailboxError('recipient_not_allowed', {
        filter_id: refusal.id,
        ...(recipients.length > 1 ? { recipient: address } : {}),
      });
  }
  const ownInboxes = new Set<string>();
  for (const [i, address] of recipients.entries()) {
    const claim = claims[i]!;
    const mine =
      'value' in claim
        ? claim.value?.value.space_id === access.space.id && claim.value.value.state === 'active'
        : await mayBeOwnInbox(rt, access.space.id, address);
    if (mine) ownInboxes.add(address);
  }
  // Unknown, an address is taken as alive: the departure reads it again and never sends to a dead one (actors/delivery.ts).
  const deadOnes = recipients.filter((_, i) => {
    const fact = dead[i]!;
    return 'value' in fact && fact.value !== null;
  });
  return { inbox, dead: deadOnes, own: ownInboxes };
}

export type SendingFacts = Awaited<ReturnType<typeof sendingFacts>>;

/**
 * Whether `to` is one of the space's inboxes when its claim could not be read: certainly not outside the
 * common domain and the space's own domains (the usual case, decided without the claim); at one of them
 * it cannot be told, and the send is refused as Redis away (the client retries with its idempotency key).
 */
async function mayBeOwnInbox(rt: Runtime, spaceId: string, to: string): Promise<false> {
  const domain = to.slice(to.lastIndexOf('@') + 1);
  if (domain !== rt.config.commonDomain && !(await rt.redis.hexists(spaceKeys(spaceId).domains, domain))) return false;
  throw new MailboxError('service_unavailable', { retry_after_seconds: STORAGE_RETRY_AFTER_SECONDS });
}

/**
 * The rules every recipient passes before the script (docs/contract.md, Decision 17): a test send only to the space's
 * human or its own inboxes; no dead address but in a test send. Answers whether any recipient is a
 * third party (neither the human nor an inbox of the space): the plan and the common-domain rule then apply.
 */
export function judgeRecipients(
  space: { human_email: string | null },
  recipients: string[],
  test: boolean,
  facts: Pick<SendingFacts, 'dead' | 'own'>,
): boolean {
  const named = (address: string) => (recipients.length > 1 ? { recipient: address } : null);
  const outsider = recipients.find((address) => address !== space.human_email && !facts.own.has(address));
  if (test && outsider) throw new MailboxError('test_recipient_not_allowed', named(outsider));
  const [dead] = facts.dead;
  if (dead && !test) throw new MailboxError('recipient_suppressed', { reason: 'dead_address', ...named(dead) });
  return outsider !== undefined;
}

/** What lua/message/createOutbound answers when it does not refuse. */
export async function createOutbound(
  rt: Runtime,
  access: Access,
  spec: OutboundSpec,
  facts: Pick<SendingFacts, 'dead' | 'own'>,
): Promise<OutboundResult> {
  const space = access.space;
  const keys = spaceKeys(space.id);
  const now = rt.clock.now();
  const inbox = spec.inbox;
  const recipients = recipientsOf(spec);
  const thirdParty = judgeRecipients(space, recipients, spec.test, facts);
  const draft = spec.requires_approval || space.approval_required;
  const dailyMax = planOf(rt.config, space.plan).daily_max;
  const earliest = Math.max(now, spec.send_after ?? 0);
  const mode = spec.thread ? 'reply' : 'first';
  const messageId = rt.ids.next('message');
  const threadId = spec.thread?.id ?? rt.ids.next('thread');
  const day = parisDay(now);
  const nowIso = iso(now);
  // A reply brings its thread back from history first: its messages' headers are read from Redis.
  if (spec.thread?.history) await bringBack(rt, space.id, spec.thread.id);
  const { references, answered } = spec.thread
    ? await threadReferences(rt, space.id, spec.thread)
    : { references: [], answered: '' };
  // Durable before the script points to them; a dry run stores nothing (the files were checked).
  const attachments = spec.dry_run ? [] : await storeOutgoingFiles(rt, space.id, spec.attachments);
  const message = outboundMessage(access, spec, { messageId, threadId, nowIso, draft, references, answered });
  message.attachments = attachments.length ? JSON.stringify(attachments) : '';
  const bodies = spec.dry_run ? null : await storeBodies(rt, space.id, message);
  // What the hash keeps (long bodies in the blob store); the answer shows `message`, bodies whole.
  const stored = bodies?.body_blobs
    ? { ...message, text: bodies.text, html: bodies.html, body_blobs: bodies.body_blobs }
    : message;
  const snippet = threadSnippet(spec.text);
  const thread = spec.thread
    ? null
    : blankThread({
        id: threadId,
        inbox_id: inbox.id,
        subject: spec.subject,
        contact: spec.to,
        contact_name: spec.to_name ?? '',
        campaign_id: spec.campaign_id ?? '',
        message_count: '1',
        last_direction: 'outbound',
        created_at: nowIso,
        snippet,
      });
  const refs = {
    inbox_id: inbox.id,
    thread_id: threadId,
    message_id: messageId,
    contact: spec.to,
    ...campaignRef({ campaign_id: spec.campaign_id ?? '' }),
  };
  const kind = draft ? 'draft.created' : 'message.queued';
  const line = prepareLine(rt, kind, actorOf(access), refs, {
    to: spec.to,
    ...copyAddresses(spec),
    subject: spec.subject,
    test: spec.test,
    reply: mode === 'reply',
  });
  const event = messageEvent(rt, space.id, draft ? 'mail.draft.created' : 'mail.message.queued', message);
  const plan = departurePlan(rt, space.plan, inbox, earliest, mode === 'reply');
  // Without an idempotency key the script never reads this key: no hash to compute.
  const idemKey = keys.idempotency(spec.idempotency_key ? sha256Hex(spec.idempotency_key) : '-');
  // Every address is searchable, the copies' too (a blind copy is the space's to find).
  const search = indexing(space.id, inbox.id, threadId, {
    subject: spec.subject,
    address: recipients.join(' '),
    name: spec.to_name ?? '',
    text: spec.text,
  });
  const reply = await outsideHistory(rt, space.id, threadId, () =>
    messageLua.createOutbound(
      rt.scripts,
      {
        space: keys.space,
        inbox: keys.inbox(inbox.id),
        domain: keys.domain(inbox.domain),
        inboxQueue: keys.inboxQueue(inbox.id),
        inboxSlots: keys.inboxSlots(inbox.id),
        inboxRecipients: keys.inboxRecipients(inbox.id),
        queue: keys.queue,
        drafts: keys.drafts,
        inboxDrafts: keys.inboxDrafts(inbox.id),
        keySent: keys.keySentOn(day),
        idempotency: idemKey,
        message: keys.message(messageId),
        thread: keys.thread(threadId),
        threadMessages: keys.threadMessages(threadId),
        threads: keys.threads,
        suppressions: keys.suppressions,
        events: keys.events,
        journal: keys.journal,
        journalIndex: keys.journalIndex,
        webhook: keys.webhook,
        blobs: keys.blobs,
        ...search.keys,
      },
      {
        now,
        nowIso,
        today: day,
        mode,
        messageId,
        threadId,
        keyId: access.key.id,
        keyDailyCap: access.key.daily_cap ?? 0,
        to: spec.to,
        recipients: recipients.join(' '),
        thirdParty,
        test: spec.test,
        draft,
        contentHash: spec.idempotency_key ? spec.content_hash : '',
        idempotencyTtl: IDEMPOTENCY_TTL_MS,
        duplicateWindow: DUPLICATE_WINDOW_MS,
        queueCap: QUEUE_FACTOR * dailyMax,
        spacing: plan.spacing_ms,
        earliest: plan.earliest,
        nextMidnight: nextParisMidnight(now),
        loopMax: LOOP_MAX,
        loopWindow: LOOP_WINDOW_MS,
        dryRun: spec.dry_run,
        intervals: plan.intervals,
        replyIntervals: plan.reply_intervals,
        ...lineArgs(line),
        event,
        blobs: [...attachments.map((a) => a.sha256), ...(bodies?.shas ?? [])].map(blobSetMember).join(' '),
        message: scriptPairs(stored),
        thread: thread ? storedPairs(thread, keepsThreadField) : ['snippet', snippet],
        indexed: search.indexed,
      },
    ),
  );
  if ('replayed' in reply) return replay(rt, access, reply.message_id);
  const slot = reply.slot;
  if ('dry_run' in reply) {
    return {
      status: reply.status,
      estimated_send_at: slot ? iso(slot) : null,
      replayed: false,
      message: null,
      thread: null,
      inbox: await liveInboxView(rt, space.plan, space.id, inbox),
    };
  }
  if (reply.wake && slot !== null) await wakeDeparture(rt, space.id, inbox.id, slot);
  afterIndexing(rt, space.id, reply.pending);
  message.status = reply.status;
  message.slot = slot ? String(slot) : '';
  const threadNow = thread ?? {
    ...spec.thread!,
    message_count: String(reply.message_count),
    last_message_at: nowIso,
    last_direction: 'outbound' as const,
    snippet,
  };
  return {
    status: reply.status,
    estimated_send_at: slot ? iso(slot) : null,
    replayed: false,
    message: messageView(message, new Map([[access.key.id, access.key.name]])),
    thread: threadView(threadNow),
    inbox: figuresView(rt, space.plan, inbox, reply.inbox),
  };
}

/** A new outbound message's hash; the script's reply sets its status and slot for the answer's view. */
function outboundMessage(
  access: Access,
  spec: OutboundSpec,
  at: { messageId: string; threadId: string; nowIso: string; draft: boolean; references: string[]; answered: string },
): StoredMessage {
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
    cc: storedCopies(spec.cc),
    bcc: storedCopies(spec.bcc),
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
    in_reply_to_id: at.answered,
    references: JSON.stringify(at.references),
    campaign_id: spec.campaign_id ?? '',
  });
}

/** The message fields createOutbound's caller writes: the script decides status, revision, slot and any_time. */
const SCRIPT_MESSAGE_FIELDS = [
  'id',
  'thread_id',
  'inbox_id',
  'direction',
  'from',
  'from_name',
  'to',
  'to_name',
  'cc',
  'bcc',
  'reply_to',
  'subject',
  'text',
  'html',
  'metadata',
  'auto_reply',
  'status_code',
  'created_at',
  'sent_at',
  'received_at',
  'send_after',
  'test',
  'key_id',
  'message_id_header',
  'in_reply_to',
  'in_reply_to_id',
  'references',
  'attempts',
  'attachments',
  'body_blobs',
  'campaign_id',
] as const satisfies readonly (keyof StoredMessage)[];

/**
 * The message's script fields kept (those not at their default: keepsMessageField), as field/value
 * pairs. A loop over fixed names, not Object.entries().flat(): measurably slower on the hot path.
 */
function scriptPairs(message: StoredMessage): string[] {
  const pairs: string[] = [];
  for (const name of SCRIPT_MESSAGE_FIELDS)
    if (keepsMessageField(message, name, message[name])) pairs.push(name, message[name]);
  return pairs;
}

const spacingMs = (rt: Runtime): number => Math.round(rt.config.spacingSeconds * 1000 * (1 + Math.random() * 0.5));

/**
 * What the slot search needs (lua/includes/findSlot.lua): the window's open intervals with each
 * day's warm-up quota from `earliest`, the same for a reply that may leave at any hour when `reply`,
 * and this departure's spacing with its jitter drawn now (docs/contract.md, Decision 4).
 */
export function departurePlan(rt: Runtime, plan: string, inbox: StoredInbox, earliest: number, reply: boolean) {
  const dailyMax = planOf(rt.config, plan).daily_max;
  const createdAt = Date.parse(inbox.created_at);
  return {
    today: parisDay(rt.clock.now()),
    // Enough days for a full queue on top of today's departures (sent ones hold their day's quota).
    intervals: plannedIntervals(rt.config, createdAt, dailyMax, earliest, false, (QUEUE_FACTOR + 1) * dailyMax),
    reply_intervals: reply
      ? plannedIntervals(rt.config, createdAt, dailyMax, earliest, true, (QUEUE_FACTOR + 1) * dailyMax)
      : '',
    spacing_ms: spacingMs(rt),
    earliest,
  };
}

export function figuresView(rt: Runtime, plan: string, inbox: StoredInbox, figures: InboxFigures): InboxView {
  // The counters as the script left them, set on the view: a copy of the inbox's record would be copied field by field.
  const view = inboxView(rt.config, plan, inbox, rt.clock.now(), {
    next: figures.next || null,
    sentToday: figures.sent,
  });
  view.drafts = figures.drafts;
  view.queued = figures.queued;
  return view;
}

/** The event of a message entering the queue or the drafts: stored with its ids, the rest read from the message (actors/events.ts). */
export function messageEvent(
  rt: Runtime,
  spaceId: string,
  type: 'mail.message.queued' | 'mail.draft.created',
  m: StoredMessage,
): string {
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

async function threadReferences(
  rt: Runtime,
  spaceId: string,
  thread: StoredThread,
): Promise<{ references: string[]; answered: string }> {
  const keys = spaceKeys(spaceId);
  const ids = await readThreadIds(
    rt,
    spaceId,
    thread,
    (pipeline, set) => pipeline.zrange(set, '-20', '-1'),
    (all) => all.slice(-20),
  );
  if (!ids.length) return { references: [], answered: '' };
  const pipeline = rt.redis.pipeline();
  for (const id of ids) pipeline.hmget(keys.message(id), ...MESSAGE_ID_HEADER_FIELDS);
  const references = (await execAll<(string | null)[]>(pipeline))
    .map((fields, i) => messageIdHeaderOf(ids[i]!, fields))
    .filter(Boolean);
  // The reply answers the thread's latest message: the one In-Reply-To names.
  return { references, answered: ids[ids.length - 1]! };
}

/**
 * reply_all's copies (docs/contract.md, Decision 17): the other people of the message a reply answers (the thread's
 * latest), as they appeared there: its From, To (every address of a received message's To header) and
 * Cc; never its Bcc. The thread's correspondent (the reply's `to`) and the space's own inboxes are left out.
 */
export async function replyAllCopies(rt: Runtime, access: Access, thread: StoredThread): Promise<Mailbox[]> {
  const [latest] = await readThreadIds(
    rt,
    access.space.id,
    thread,
    (pipeline, set) => pipeline.zrange(set, '-1', '-1'),
    (all) => all.slice(-1),
  );
  const answered = latest ? await readMessage(rt, access.space.id, latest) : null;
  if (!answered) return [];
  const people: Mailbox[] = [
    { address: answered.from, name: answered.from_name || null },
    ...(answered.to_list ? copiesOf(answered.to_list) : [{ address: answered.to, name: answered.to_name || null }]),
    ...copiesOf(answered.cc),
  ].filter((m) => m.address && m.address !== thread.contact);
  const distinct = [...new Map(people.map((m) => [m.address, m])).values()];
  const claims = await Promise.all(distinct.map((m) => readClaim<AddressClaim>(rt, globalKeys.address(m.address))));
  return distinct.filter((_, i) => claims[i]?.value.space_id !== access.space.id);
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
  const [thread, inbox] = await Promise.all([
    readThread(rt, access.space.id, message.thread_id),
    readInbox(rt, access.space.id, message.inbox_id),
  ]);
  if (!thread || !inbox) throw new MailboxError('internal');
  const slot = Number(message.slot || 0);
  return {
    status: message.status === 'draft' ? 'draft' : 'queued',
    estimated_send_at: message.status === 'queued' && slot ? iso(slot) : null,
    replayed: true,
    message: (await messageViews(rt, access.space.id, [message]))[0]!,
    thread: threadView(thread),
    inbox: await liveInboxView(rt, access.space.plan, access.space.id, inbox),
  };
}

export const contentHash = (input: Record<string, unknown>): string => {
  const { idempotency_key: _ignored, ...rest } = input;
  const canonical = JSON.stringify(
    Object.keys(rest)
      .sort()
      .map((key) => [key, rest[key]]),
  );
  return sha256Hex(canonical);
};
