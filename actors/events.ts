/**
 * Event envelopes (decisions.md 5): built here, appended by the script that changes the state
 * (lua/includes/appendEvent.lua), read by event_feed (readFeed below) and the webhook workers
 * (src/webhooks/worker.ts).
 */
import type { Runtime } from '../src/runtime.js';
import { iso } from '../src/clock.js';
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

/** lua/space/readEvents's reply: the stream ids and, in the same order, their envelopes and their sizes in bytes as stored. */
interface EventsPage {
  ids: string[];
  envelopes: Envelope[];
  sizes: number[];
}

/**
 * A page of the space's events in emission order, and the stream id it ends at (null when nothing was
 * read: the caller keeps its position). `webhook.test` entries are the webhook's alone: skipped.
 * Each batch comes from lua/space/readEvents as one JSON document: one string to read and one parse,
 * where XRANGE's reply (an array per entry) cost ioredis more than the JSON of its envelopes.
 */
export async function readFeed(rt: Runtime, spaceId: string, q: FeedQuery): Promise<{ events: Envelope[]; position: string | null }> {
  const key = spaceKeys(spaceId).events;
  const events: Envelope[] = [];
  let position: string | null = null;
  let bytes = 0;
  let scanned = 0;
  while (events.length < q.limit && scanned < q.maxScanned) {
    const count = Math.min(q.limit - events.length, q.maxScanned - scanned);
    const from: string | null = position ?? q.after;
    const page: EventsPage = await rt.scripts.run('space/readEvents', { events: key }, [from ? `(${from}` : '-', count]);
    for (let i = 0; i < page.ids.length; i++) {
      const envelope = page.envelopes[i]!;
      const shown = envelope.type !== WEBHOOK_TEST && q.visible(envelope);
      const size = page.sizes[i]!;
      if (shown && events.length > 0 && bytes + size > q.maxBytes) return { events, position };
      scanned++;
      position = page.ids[i]!;
      if (!shown) continue;
      events.push(envelope);
      bytes += size;
    }
    if (page.ids.length < count) break;
  }
  return { events, position };
}
