/**
 * Event envelopes (decisions.md 5): built here, appended by the script that changes the state
 * (lua/includes/appendEvent.lua), read by event_feed (readFeed below), the realtime socket
 * (readEntries, awaitEntries: src/http/realtime.ts) and the webhook workers (src/webhooks/worker.ts).
 */
import type { Runtime } from '../src/runtime.js';
import { iso } from '../src/clock.js';
import type { RedisClient } from '../src/redis/connect.js';
import { spaceKeys } from '../src/redis/keys.js';

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
export function prepareEvent(rt: Runtime, spaceId: string, type: EventType, subject: EventSubject, data: Record<string, unknown>): string {
  const envelope: Envelope = {
    id: rt.ids.next('event'),
    type,
    occurred_at: iso(rt.clock.now()),
    account: { space_id: spaceId },
    subject: { person: subject.person ?? null, refs: { ...subject.refs } },
    data,
    v: 1,
  };
  return JSON.stringify(envelope);
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

/** One entry of the space's stream: its position, and its envelope unless it is the webhook's alone. */
export interface StreamEntry {
  position: string;
  envelope: Envelope | null;
  /** The envelope's length as stored (JSON characters). */
  size: number;
}

const entriesOf = (raw: [string, string[]][]): StreamEntry[] =>
  raw.map(([position, fields]) => {
    const json = fields[1]!;
    const envelope = JSON.parse(json) as Envelope;
    return { position, envelope: envelope.type === WEBHOOK_TEST ? null : envelope, size: json.length };
  });

/** Up to `count` entries after `after` (exclusive; null: from the oldest kept), in emission order. */
export async function readEntries(rt: Runtime, spaceId: string, after: string | null, count: number): Promise<StreamEntry[]> {
  return entriesOf(await rt.redis.xrange(spaceKeys(spaceId).events, after ? `(${after}` : '-', '+', 'COUNT', count));
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
export async function awaitEntries(connection: RedisClient, spaceId: string, after: string, count: number, blockMs: number): Promise<StreamEntry[]> {
  const reply = (await connection.xread('COUNT', count, 'BLOCK', blockMs, 'STREAMS', spaceKeys(spaceId).events, after)) as [string, [string, string[]][]][] | null;
  return reply ? entriesOf(reply[0]![1]) : [];
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
