/**
 * Event envelopes (docs/contract.md, Decision 5): built here, appended by the script that changes the state
 * (lua/includes/appendEvent.lua), read by event_feed (readFeed below), the realtime socket
 * (readEntries, awaitEntries: src/http/realtime.ts) and the webhook workers (src/webhooks/worker.ts).
 */
import { withFieldsInHistory } from './history-records.js';
import { copiesOf } from '../src/sending/recipients.js';
import { StringDecoder } from 'node:string_decoder';
import { isDeepStrictEqual } from 'node:util';
import type { Runtime } from '../src/runtime.js';
import { iso } from '../src/clock.js';
import { decodeTime, encodeTime, idBody } from '../src/ids.js';
import type { RedisClient } from '../src/redis/connect.js';
import { spaceKeys } from '../src/redis/keys.js';
import { execAll, queueFlat } from '../src/redis/pipeline.js';
import { replyText } from '../src/mail/content.js';
import { blobHead, blobKey } from '../src/blobs/store.js';
import { authResultsOf, campaignRef, receivedAtOf } from './stored-records.js';
import * as eventsLua from './bindings/events.generated.js';
import { attachmentsOf } from './attachments.js';

/**
 * A message event's envelope, as JSON in UTF-8, weighs at most this (docs/events.md): webhook payloads
 * and the feed carry the message's text as far as it fits (docs/contract.md, Decision 9), cut by fitTexts.
 */
const EVENT_MAX_BYTES = 256 * 1024;

/** What the feed and the webhook carry, in the order docs/events.md lists them. */
const MAIL_EVENT_TYPES = [
  'mail.message.queued',
  'mail.message.sent',
  'mail.message.delivered',
  'mail.message.bounced',
  'mail.message.failed',
  'mail.message.rejected',
  'mail.message.received',
  'mail.thread.replied',
  'mail.contact.unsubscribed',
  'mail.contact.complained',
  'mail.draft.created',
  'mail.inbox.suspended',
  'mail.domain.verified',
  'mail.domain.suspended',
  'mail.campaign.started',
  'mail.campaign.paused',
  'mail.campaign.finished',
] as const;

/** Sent to the webhook only, at each declaration (set_webhook); the feed skips it. */
export const WEBHOOK_TEST = 'webhook.test';

export type EventType = (typeof MAIL_EVENT_TYPES)[number] | typeof WEBHOOK_TEST;

/** Everything a webhook may receive: set_webhook's `events`. */
export const WEBHOOK_EVENT_TYPES: readonly EventType[] = [...MAIL_EVENT_TYPES, WEBHOOK_TEST];

export interface EventSubject {
  person?: { email: string; name: string | null } | null;
  refs?: { inbox_id?: string; thread_id?: string; message_id?: string; campaign_id?: string; domain_id?: string };
}

export interface Envelope {
  id: string;
  type: EventType;
  occurred_at: string;
  account: { space_id: string };
  subject: { person: { email: string; name: string | null } | null; refs: Record<string, string> };
  data: Record<string, unknown>;
  v: 1;
}

/**
 * How an event is stored: one stream entry of one field `p`, five lines (docs/events.md):
 * - the evt id's body, only its last 10 characters when the entry's ms is the id's (the usual case);
 * - the type's index in WEBHOOK_EVENT_TYPES (stored: that list only grows at its end);
 * - for a message's event (MessageFill), the message id's body, else '';
 * - the subject JSON, '' for a message's event (rebuilt from the message);
 * - the data JSON; for a message's event only the members after its three ids ('' when none).
 * The rest is derived when read: `occurred_at` is the id's time, `account` the stream key's space, `v` 1.
 * prepareEvent packs the five lines into one script argument, separated by newlines (JSON never holds
 * a raw one, ids neither); appendEvent (lua/includes) stores them as the entry's field.
 */
const FIELD_SEPARATOR = '\n';

/** The stored type codes, and which message kind a message's event is rebuilt from. */
const TYPE_CODES = new Map(WEBHOOK_EVENT_TYPES.map((type, code) => [type, code]));
const FILL_KINDS: Partial<Record<EventType, MessageFill['kind']>> = {
  'mail.message.queued': 'outbound',
  'mail.draft.created': 'outbound',
  'mail.message.received': 'inbound',
  'mail.thread.replied': 'inbound',
};
/** A message's event starts its data with these, in this order (messageEvent, receiveInbound). */
const MESSAGE_IDS = ['message_id', 'thread_id', 'inbox_id'] as const;
/** What follows them in a received message's event (receiveInbound) when it answers nothing: stored as no data at all. */
const UNANSWERED = { answered: null, metadata: null };

/**
 * The event for a script's ARGV, packed as above; the id comes first: appendEvent reads the stream
 * entry's time from it. `spaceId` is not stored: the stream's key names the space.
 */
export function prepareEvent(
  rt: Runtime,
  spaceId: string,
  type: EventType,
  subject: EventSubject,
  data: Record<string, unknown>,
  fill?: MessageFill,
): string {
  const body = idBody(rt.ids.next('event'));
  if (!fill)
    return [
      body,
      TYPE_CODES.get(type),
      '',
      JSON.stringify({ person: subject.person ?? null, refs: { ...subject.refs } }),
      JSON.stringify(data),
    ].join(FIELD_SEPARATOR);
  const { message_id, thread_id, inbox_id, ...rest } = data;
  // What the reader rebuilds must be what was given: a message's event names its own message first.
  if (
    FILL_KINDS[type] !== fill.kind ||
    message_id !== fill.message_id ||
    Object.keys(data).slice(0, 3).join() !== MESSAGE_IDS.join() ||
    !thread_id ||
    !inbox_id
  ) {
    throw new Error(`prepareEvent: ${type} does not start with the ids of its message ${fill.message_id}`);
  }
  const stored =
    !Object.keys(rest).length || (fill.kind === 'inbound' && isDeepStrictEqual(rest, UNANSWERED))
      ? ''
      : JSON.stringify(rest);
  return [body, TYPE_CODES.get(type), idBody(fill.message_id), '', stored].join(FIELD_SEPARATOR);
}

/**
 * What a message's hash holds is not stored again in its events (docs/contract.md, Decision 10): the stored event
 * keeps its message's id (and, for a reply, what it answers), and the readers (readFeed, the webhook
 * worker) rebuild from the message as it is when the event is read `subject` (person, refs), the ids at
 * the head of `data`, and the rest of `data`: for an outbound message `from`, `to`, `cc`, `bcc`, `subject`, `text`,
 * `test`, `metadata`; for a received one `from`, `from_name`, `to`, `cc`, `subject`, `text`, `text_unavailable`
 * (when the text could not be read), `reply_text`, `has_html`, `auto_reply`, `received_at`, `authentication`, `attachments`.
 */
export interface MessageFill {
  message_id: string;
  kind: 'outbound' | 'inbound';
}

/**
 * The message fields an event is completed from, '' when the hash leaves them out. A literal filled
 * in a loop: Object.fromEntries over the field names cost 2.3 µs a message, this 0.2.
 */
const blankFilled = () => ({
  from: '',
  from_name: '',
  to: '',
  to_name: '',
  inbox_id: '',
  thread_id: '',
  campaign_id: '',
  subject: '',
  text: '',
  html: '',
  body_blobs: '',
  test: '',
  metadata: '',
  auto_reply: '',
  received_at: '',
  auth_results: '',
  attachments: '',
  text_unavailable: '',
  cc: '',
  bcc: '',
});
type Filled = ReturnType<typeof blankFilled>;
const FILL_FIELDS = Object.keys(blankFilled()) as (keyof Filled)[];

function filledOf(values: (string | null)[]): Filled {
  const filled = blankFilled();
  for (let i = 0; i < FILL_FIELDS.length; i++) {
    const value = values[i];
    if (value !== null && value !== undefined) filled[FILL_FIELDS[i]!] = value;
  }
  return filled;
}

const json = (value: string): unknown => (value ? JSON.parse(value) : null);

function filledData({ kind, message_id: messageId }: MessageFill, m: Filled): Record<string, unknown> {
  const text = m.text;
  if (kind === 'outbound')
    return {
      from: m.from,
      to: m.to,
      cc: copiesOf(m.cc),
      bcc: copiesOf(m.bcc),
      subject: m.subject,
      text,
      test: m.test === '1',
      metadata: json(m.metadata),
    };
  return {
    from: m.from || null,
    from_name: m.from_name || null,
    to: m.to,
    cc: copiesOf(m.cc),
    subject: m.subject,
    text,
    ...(m.text_unavailable ? { text_unavailable: m.text_unavailable } : {}),
    reply_text: replyText(text),
    has_html: Boolean(m.html) || m.body_blobs.includes('html:'),
    auto_reply: m.auto_reply === '1',
    received_at: receivedAtOf(messageId, 'received', m.received_at),
    authentication: authResultsOf(m.auth_results, m.from),
    attachments: attachmentsOf(m),
  };
}

/** The subject of a message's event: its correspondent and its objects (as messageEvent and receiveInbound give them). */
function filledSubject(kind: MessageFill['kind'], messageId: string, m: Filled): Envelope['subject'] {
  const person =
    kind === 'outbound'
      ? { email: m.to, name: m.to_name || null }
      : m.from
        ? { email: m.from, name: m.from_name || null }
        : null;
  return { person, refs: { inbox_id: m.inbox_id, thread_id: m.thread_id, message_id: messageId, ...campaignRef(m) } };
}

/** A stored entry read back: the envelope as far as the entry tells it, and the message it is completed from. */
interface Stored {
  envelope: Envelope;
  fill: MessageFill | null;
}

/** The five lines of a packed event (prepareEvent), the last one whole. */
function packedLines(packed: string): [string, string, string, string, string] {
  const lines: string[] = [];
  let from = 0;
  for (let line = 0; line < 4; line++) {
    const end = packed.indexOf(FIELD_SEPARATOR, from);
    lines.push(packed.slice(from, end));
    from = end + 1;
  }
  lines.push(packed.slice(from));
  return lines as [string, string, string, string, string];
}

function decodeEntry(spaceId: string, position: string, fields: string[]): Stored {
  const [stored, code, message, subject, data] = packedLines(fields[1]!);
  const body = stored.length === 10 ? encodeTime(Number(position.slice(0, position.indexOf('-')))) + stored : stored;
  const type = WEBHOOK_EVENT_TYPES[Number(code)]!;
  const kind = FILL_KINDS[type];
  const envelope: Envelope = {
    id: `evt_${body}`,
    type,
    occurred_at: iso(decodeTime(body)),
    account: { space_id: spaceId },
    subject: subject ? (JSON.parse(subject) as Envelope['subject']) : { person: null, refs: {} },
    data: data ? (JSON.parse(data) as Record<string, unknown>) : message && kind === 'inbound' ? { ...UNANSWERED } : {},
    v: 1,
  };
  return { envelope, fill: message && kind ? { message_id: `msg_${message}`, kind } : null };
}

/**
 * The fields of today's layout (`p`, the packed event) for an entry written in an older one, null for
 * one of today's: five fields `i t m s d` holding the same lines, or one field `e`, the envelope JSON
 * with its `fill`. For `mailbox admin migrate` (src/storage/migrations/006-event-entries.ts).
 */
export function packedEntry(fields: string[]): ['p', string] | null {
  if (fields[0] === 'p') return null;
  if (fields[0] !== 'e') return ['p', [fields[1], fields[3], fields[5], fields[7], fields[9]].join(FIELD_SEPARATOR)];
  const { fill, ...envelope } = JSON.parse(fields[1]!) as Envelope & { fill?: MessageFill };
  const head = [idBody(envelope.id), TYPE_CODES.get(envelope.type)];
  if (!fill)
    return ['p', [...head, '', JSON.stringify(envelope.subject), JSON.stringify(envelope.data)].join(FIELD_SEPARATOR)];
  // A message's entry keeps what follows its ids; the rest is read from the message, as before.
  const { message_id: _message, thread_id: _thread, inbox_id: _inbox, ...rest } = envelope.data;
  return [
    'p',
    [...head, idBody(fill.message_id), '', Object.keys(rest).length ? JSON.stringify(rest) : ''].join(FIELD_SEPARATOR),
  ];
}

/**
 * Cuts a message event's `text` (and a received one's `reply_text`) so that its envelope's JSON weighs
 * at most EVENT_MAX_BYTES: `reply_text`, the new part, keeps up to half the room the other members
 * leave, `text` the rest. Without reply_text, text (256 KB) and reply_text (as much again) made a
 * received message's event weigh over 512 KB. Exact sizes only when the cheap bound passes the limit.
 */
function fitTexts(envelope: Envelope): void {
  if (jsonLengthBound(envelope) <= EVENT_MAX_BYTES) return;
  const data = envelope.data as { text: string; reply_text?: string };
  const { text, reply_text: reply } = data;
  data.text = '';
  if (reply !== undefined) data.reply_text = '';
  const room = Math.max(0, EVENT_MAX_BYTES - Buffer.byteLength(JSON.stringify(envelope)));
  let replyBytes = 0;
  if (reply !== undefined) {
    const kept = jsonPrefix(reply, Math.floor(room / 2));
    data.reply_text = reply.slice(0, kept.length);
    replyBytes = kept.bytes;
  }
  data.text = text.slice(0, jsonPrefix(text, room - replyBytes).length);
}

/** The longest prefix of `value` whose JSON string content weighs at most `max` bytes of UTF-8, never splitting a surrogate pair. */
function jsonPrefix(value: string, max: number): { length: number; bytes: number } {
  let bytes = 0;
  let i = 0;
  while (i < value.length) {
    const code = value.charCodeAt(i);
    let cost: number;
    let width = 1;
    if (
      code === 0x22 ||
      code === 0x5c ||
      code === 0x08 ||
      code === 0x0c ||
      code === 0x0a ||
      code === 0x0d ||
      code === 0x09
    )
      cost = 2;
    else if (code < 0x20) cost = 6;
    else if (code < 0x80) cost = 1;
    else if (code < 0x800) cost = 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < value.length && (value.charCodeAt(i + 1) & 0xfc00) === 0xdc00)
      [cost, width] = [4, 2];
    // A lone surrogate is written \udXXX by JSON.stringify.
    else if (code >= 0xd800 && code <= 0xdfff) cost = 6;
    else cost = 3;
    if (bytes + cost > max) break;
    bytes += cost;
    i += width;
  }
  return { length: i, bytes };
}

/**
 * Stream entries as delivered (null for an entry trimmed while it waited in the webhook group): the ones
 * that name a message get its fields back (one pipelined read, plus the head of each text kept in the
 * blob store: EVENT_MAX_BYTES of UTF-8 hold any text an event can carry). With `blobTexts` (1 or more),
 * only the entries before the one that would read more texts than that from the blob store: a reader's
 * page then holds a bounded weight of texts, whatever the messages.
 */
export async function completeEnvelopes(
  rt: Runtime,
  spaceId: string,
  entries: [position: string, fields: string[] | null][],
  blobTexts = Infinity,
): Promise<(Envelope | null)[]> {
  let decoded = entries.map(([position, fields]) => (fields?.length ? decodeEntry(spaceId, position, fields) : null));
  let pending = decoded.filter((entry): entry is Stored & { fill: MessageFill } => Boolean(entry?.fill));
  if (pending.length) {
    const keys = spaceKeys(spaceId);
    const reads = rt.redis.pipeline();
    for (const { fill } of pending) queueFlat(reads, 'hmget', [keys.message(fill.message_id), ...FILL_FIELDS]);
    // A message of a thread in history: its hash, as stored, is in the thread's document.
    let messages = (
      await withFieldsInHistory(
        rt,
        spaceId,
        pending.map(({ fill }) => fill.message_id),
        FILL_FIELDS,
        await execAll<(string | null)[]>(reads),
      )
    ).map(filledOf);
    const blobs = messages.map((m) => /(?:^| )text:([0-9a-f]+)/.exec(m.body_blobs)?.[1] ?? null);
    let cut = -1;
    for (let i = 0, read = 0; cut < 0 && i < blobs.length; i++) if (blobs[i] && ++read > blobTexts) cut = i;
    if (cut >= 0) {
      decoded = decoded.slice(0, decoded.indexOf(pending[cut]!));
      [pending, messages] = [pending.slice(0, cut), messages.slice(0, cut)];
    }
    // Only the texts kept in the blob store are read: of the html, whether there is one is all an event says.
    await Promise.all(
      messages.map(async (m, i) => {
        if (!blobs[i]) return;
        const head = await blobHead(rt.ports.blobs, blobKey(spaceId, blobs[i]), EVENT_MAX_BYTES);
        if (!head) throw new Error(`the text of a message of ${spaceId} is missing from the blob store`);
        // A character cut in two at the end of the head is left out, not garbled.
        m.text = new StringDecoder('utf8').write(head);
      }),
    );
    pending.forEach(({ envelope, fill }, i) => {
      const m = messages[i]!;
      const filled = filledData(fill, m);
      envelope.subject = filledSubject(fill.kind, fill.message_id, m);
      envelope.data = {
        message_id: fill.message_id,
        thread_id: m.thread_id,
        inbox_id: m.inbox_id,
        ...envelope.data,
        ...filled,
      };
    });
    for (const { envelope } of pending) fitTexts(envelope);
  }
  return decoded.map((entry) => entry?.envelope ?? null);
}

/** The evt id of an envelope JSON, without parsing it (bodies may carry 256 KB of text). */
export const eventIdOf = (json: string): string | null => /"id":"(evt_[0-9a-z]{20})"/.exec(json)?.[1] ?? null;

/** Whether a key restricted to `inboxIds` (null: the whole space) sees an envelope. */
export const visibleTo =
  (inboxIds: string[] | null) =>
  (envelope: Envelope): boolean =>
    !inboxIds || inboxIds.includes(envelope.subject.refs.inbox_id ?? '');

/** Stream positions (`<ms>-<seq>`) in emission order: negative when `a` came first. */
export function comparePositions(a: string, b: string): number {
  const [aMs, aSeq] = a.split('-').map(Number) as [number, number];
  const [bMs, bSeq] = b.split('-').map(Number) as [number, number];
  return aMs - bMs || aSeq - bSeq;
}

/** One entry of the space's stream: its position, and its envelope (completed) unless it is the webhook's alone. */
export interface StreamEntry {
  position: string;
  envelope: Envelope | null;
}

/**
 * Message events whose text one read takes from the blob store at most (completeEnvelopes): each may
 * carry EVENT_MAX_BYTES, so a read of the stream holds about this many quarter-megabytes of texts.
 */
const TEXTS_PER_READ = 16;

/** The entries of a prefix of `raw` (all of them unless more than `blobTexts` texts would be read), completed. */
async function entriesOf(
  rt: Runtime,
  spaceId: string,
  raw: [string, string[]][],
  blobTexts: number,
): Promise<StreamEntry[]> {
  const envelopes = await completeEnvelopes(rt, spaceId, raw, blobTexts);
  return envelopes.map((envelope, at) => ({
    position: raw[at]![0],
    envelope: envelope!.type === WEBHOOK_TEST ? null : envelope,
  }));
}

/**
 * Up to `count` entries after `after` (exclusive; null: from the oldest kept), in emission order, fewer
 * where more than `blobTexts` would be completed from the blob store; `end` when none followed them then.
 */
export async function readEntries(
  rt: Runtime,
  spaceId: string,
  after: string | null,
  count: number,
  blobTexts = TEXTS_PER_READ,
): Promise<{ entries: StreamEntry[]; end: boolean }> {
  const raw = await rt.redis.xrange(spaceKeys(spaceId).events, after ? `(${after}` : '-', '+', 'COUNT', count);
  const entries = await entriesOf(rt, spaceId, raw, blobTexts);
  return { entries, end: raw.length < count && entries.length === raw.length };
}

/** Where the stream ends now: the last entry's position, or the position before any. */
export async function lastPosition(rt: Runtime, spaceId: string): Promise<string> {
  const [last] = await rt.redis.xrevrange(spaceKeys(spaceId).events, '+', '-', 'COUNT', 1);
  return last ? last[0] : '0-0';
}

/**
 * Entries after `after`, waiting up to `blockMs` for the first on `connection`, which the wait holds:
 * a connection of its own (XREAD BLOCK). Empty when none came; fewer than `count` past TEXTS_PER_READ texts.
 */
export async function awaitEntries(
  rt: Runtime,
  connection: RedisClient,
  spaceId: string,
  after: string,
  count: number,
  blockMs: number,
): Promise<StreamEntry[]> {
  const reply = await connection.xread('COUNT', count, 'BLOCK', blockMs, 'STREAMS', spaceKeys(spaceId).events, after);
  return reply ? entriesOf(rt, spaceId, reply[0]![1], TEXTS_PER_READ) : [];
}

export interface FeedQuery {
  /** The stream id to read after (exclusive); null = from the oldest kept event. */
  after: string | null;
  limit: number;
  /** Envelopes the reader may see; the position still moves past the others. */
  visible: (envelope: Envelope) => boolean;
  /** A page stops before this many bytes of envelopes (at least one event is always returned). */
  maxBytes: number;
  /** Entries one call may look at before it answers a short page (a restricted key's hidden events). */
  maxScanned: number;
}

/**
 * A page of the space's events in emission order, and the stream id it ends at (null when nothing was
 * read: the caller keeps its position). `webhook.test` entries are the webhook's alone: skipped.
 */
export async function readFeed(
  rt: Runtime,
  spaceId: string,
  q: FeedQuery,
): Promise<{ events: Envelope[]; position: string | null }> {
  const events: Envelope[] = [];
  const bytes = new PageBytes(q.maxBytes);
  let position: string | null = null;
  let scanned = 0;
  while (events.length < q.limit && scanned < q.maxScanned) {
    const count = Math.min(q.limit - events.length, q.maxScanned - scanned);
    const { entries, end } = await readEntries(rt, spaceId, position ?? q.after, count);
    for (const { position: id, envelope } of entries) {
      const shown = envelope !== null && q.visible(envelope);
      // Measured only for an envelope the page would show: the socket and hidden entries need no length.
      if (shown && !bytes.add(envelope, events.length === 0)) return { events, position };
      scanned++;
      position = id;
      if (!shown) continue;
      events.push(envelope);
    }
    if (end) break;
  }
  return { events, position };
}

/**
 * The JSON bytes of a page's envelopes against its budget, exact where the decision needs it: a
 * JSON.stringify measured 3.9 µs for a 1.5 KB envelope, its upper bound (jsonLengthBound) 0.3, so the
 * envelopes are stringified only once their bounds could pass the budget. Pages end where exact sizes
 * would end them.
 */
export class PageBytes {
  private exact = 0;
  private bounds = 0;
  private unmeasured: unknown[] = [];

  constructor(private readonly max: number) {}

  /** Counts the value when it fits after those counted so far, or `always` (a page's first); whether it was counted. */
  add(value: unknown, always: boolean): boolean {
    const bound = jsonLengthBound(value);
    if (this.exact + this.bounds + bound <= this.max) {
      this.unmeasured.push(value);
      this.bounds += bound;
      return true;
    }
    for (const counted of this.unmeasured) this.exact += JSON.stringify(counted).length;
    [this.unmeasured, this.bounds] = [[], 0];
    const size = JSON.stringify(value).length;
    if (!always && this.exact + size > this.max) return false;
    this.exact += size;
    return true;
  }
}

/** At least the length of `JSON.stringify(value)` for plain data: a character escapes to at most 6 (`\uXXXX`), a number to at most 24. */
export function jsonLengthBound(value: unknown): number {
  if (typeof value === 'string') return 6 * value.length + 2;
  if (value === null || typeof value !== 'object') return 24;
  let length = 2;
  if (Array.isArray(value)) {
    for (const item of value) length += jsonLengthBound(item) + 1;
    return length;
  }
  for (const key in value) length += 6 * key.length + 4 + jsonLengthBound((value as Record<string, unknown>)[key]);
  return length;
}

/** Drops the space's events past their retention at `now` (lua/events/trimEvents-1.lua), as an append would. */
export async function trimEvents(rt: Runtime, spaceId: string, now: number): Promise<void> {
  await eventsLua.trimEvents(rt.scripts, { events: spaceKeys(spaceId).events }, { now });
}
