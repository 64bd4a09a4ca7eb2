/**
 * Event envelopes (decisions.md 5): built here, appended by the script that changes the state
 * (lua/includes/appendEvent.lua), read by event_feed (readFeed below), the realtime socket
 * (readEntries, awaitEntries: src/http/realtime.ts) and the webhook workers (src/webhooks/worker.ts).
 */
import type { Runtime } from '../src/runtime.js';
import { iso } from '../src/clock.js';
import type { RedisClient } from '../src/redis/connect.js';
import { spaceKeys } from '../src/redis/keys.js';
import { execAll } from '../src/redis/pipeline.js';
import { replyText } from '../src/mail/content.js';
import { textOnly, withBodies } from './records.js';
import { attachmentsOf } from './attachments.js';

/** Webhook payloads and the feed carry a message's text up to this size (decisions.md 9). */
export const EVENT_TEXT_MAX = 256 * 1024;

/** What the feed and the webhook carry, in the order docs/events.md lists them. */
export const MAIL_EVENT_TYPES = [
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
 * The envelope JSON for a script's ARGV. `id` comes first: appendEvent reads the stream entry's time
 * from it without decoding the whole envelope.
 */
export function prepareEvent(rt: Runtime, spaceId: string, type: EventType, subject: EventSubject, data: Record<string, unknown>, fill?: MessageFill): string {
  const envelope: Envelope & { fill?: MessageFill } = {
    id: rt.ids.next('event'),
    type,
    occurred_at: iso(rt.clock.now()),
    account: { space_id: spaceId },
    subject: { person: subject.person ?? null, refs: { ...subject.refs } },
    data,
    v: 1,
  };
  if (fill) envelope.fill = fill;
  return JSON.stringify(envelope);
}

/**
 * What a message's hash holds is not stored again in its events (decisions.md 10): the stored envelope
 * keeps its ids (and, for a reply, what it answers), names the message in `fill`, and the readers
 * (readFeed, the webhook worker) rebuild the rest of `data` from the message as it is when the event
 * is read: for an outbound message `from`, `to`, `subject`, `text`, `test`, `metadata`; for a received
 * one `from`, `from_name`, `to`, `subject`, `text`, `reply_text`, `has_html`, `auto_reply`,
 * `received_at`, `authentication`, `attachments`.
 */
export interface MessageFill {
  message_id: string;
  kind: 'outbound' | 'inbound';
}

const FILL_FIELDS = ['from', 'from_name', 'to', 'subject', 'text', 'html', 'body_blobs', 'test', 'metadata', 'auto_reply', 'received_at', 'auth_results', 'attachments'] as const;
type Filled = Record<(typeof FILL_FIELDS)[number], string>;

const json = (value: string): unknown => (value ? JSON.parse(value) : null);

function filledData(kind: MessageFill['kind'], m: Filled): Record<string, unknown> {
  const text = m.text.slice(0, EVENT_TEXT_MAX);
  if (kind === 'outbound') return { from: m.from, to: m.to, subject: m.subject, text, test: m.test === '1', metadata: json(m.metadata) };
  return {
    from: m.from || null, from_name: m.from_name || null, to: m.to, subject: m.subject, text, reply_text: replyText(m.text).slice(0, EVENT_TEXT_MAX),
    has_html: Boolean(m.html) || m.body_blobs.includes('html:'), auto_reply: m.auto_reply === '1', received_at: m.received_at,
    authentication: json(m.auth_results), attachments: attachmentsOf(m),
  };
}

/** Stored envelope JSONs as delivered: the ones that name a message get its fields back (one pipelined read). */
export async function completeEnvelopes(rt: Runtime, spaceId: string, jsons: string[]): Promise<string[]> {
  const pending = jsons.map((json, index) => ({ index, parsed: json.includes('"fill":{') ? (JSON.parse(json) as Envelope & { fill?: MessageFill }) : null }))
    .filter((entry): entry is { index: number; parsed: Envelope & { fill: MessageFill } } => Boolean(entry.parsed?.fill));
  if (!pending.length) return jsons;
  const keys = spaceKeys(spaceId);
  const reads = rt.redis.pipeline();
  for (const { parsed } of pending) reads.hmget(keys.message(parsed.fill.message_id), ...FILL_FIELDS);
  const messages = (await execAll<(string | null)[]>(reads)).map((values) => Object.fromEntries(FILL_FIELDS.map((field, i) => [field, values[i] ?? ''])) as Filled);
  // Only the texts kept in the blob store are read: of the html, whether there is one is all an event says.
  const texts = await withBodies(rt, spaceId, messages.map((m) => textOnly(m.text, m.body_blobs)));
  messages.forEach((m, i) => (m.text = texts[i]!.text));
  const complete = [...jsons];
  pending.forEach(({ index, parsed: { fill, ...envelope } }, i) => {
    envelope.data = { ...envelope.data, ...filledData(fill.kind, messages[i]!) };
    complete[index] = JSON.stringify(envelope);
  });
  return complete;
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
  /** The complete envelope's length (JSON characters). */
  size: number;
}

async function entriesOf(rt: Runtime, spaceId: string, raw: [string, string[]][]): Promise<StreamEntry[]> {
  const jsons = await completeEnvelopes(rt, spaceId, raw.map(([, fields]) => fields[1]!));
  return raw.map(([position], at) => {
    const json = jsons[at]!;
    const envelope = JSON.parse(json) as Envelope;
    return { position, envelope: envelope.type === WEBHOOK_TEST ? null : envelope, size: json.length };
  });
}

/** Up to `count` entries after `after` (exclusive; null: from the oldest kept), in emission order. */
export async function readEntries(rt: Runtime, spaceId: string, after: string | null, count: number): Promise<StreamEntry[]> {
  return entriesOf(rt, spaceId, await rt.redis.xrange(spaceKeys(spaceId).events, after ? `(${after}` : '-', '+', 'COUNT', count));
}

/** Where the stream ends now: the last entry's position, or the position before any. */
export async function lastPosition(rt: Runtime, spaceId: string): Promise<string> {
  const [last] = await rt.redis.xrevrange(spaceKeys(spaceId).events, '+', '-', 'COUNT', 1);
  return last ? last[0] : '0-0';
}

/**
 * Entries after `after`, waiting up to `blockMs` for the first on `connection`, which the wait holds:
 * a connection of its own (XREAD BLOCK). Empty when none came.
 */
export async function awaitEntries(rt: Runtime, connection: RedisClient, spaceId: string, after: string, count: number, blockMs: number): Promise<StreamEntry[]> {
  const reply = (await connection.xread('COUNT', count, 'BLOCK', blockMs, 'STREAMS', spaceKeys(spaceId).events, after)) as [string, [string, string[]][]][] | null;
  return reply ? entriesOf(rt, spaceId, reply[0]![1]) : [];
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
export async function readFeed(rt: Runtime, spaceId: string, q: FeedQuery): Promise<{ events: Envelope[]; position: string | null }> {
  const events: Envelope[] = [];
  let position: string | null = null;
  let bytes = 0;
  let scanned = 0;
  while (events.length < q.limit && scanned < q.maxScanned) {
    const count = Math.min(q.limit - events.length, q.maxScanned - scanned);
    const entries = await readEntries(rt, spaceId, position ?? q.after, count);
    for (const { position: id, envelope, size } of entries) {
      const shown = envelope !== null && q.visible(envelope);
      if (shown && events.length > 0 && bytes + size > q.maxBytes) return { events, position };
      scanned++;
      position = id;
      if (!shown) continue;
      events.push(envelope);
      bytes += size;
    }
    if (entries.length < count) break;
  }
  return { events, position };
}
