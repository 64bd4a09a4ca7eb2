/**
 * The stored records that several actors read, and their readers: the message, thread and inbox hashes
 * as stored, the blank records new ones start from, and the inbox object and warm-up shown from them. A leaf of the actors (it imports none), so the Inbox,
 * Message and waiting-message modules share them without importing each other.
 */
import type { Runtime } from '../src/runtime.js';
import { spaceKeys } from '../src/redis/keys.js';
import { execAll, queueFlat } from '../src/redis/pipeline.js';
import type { RedisClient } from '../src/redis/connect.js';
import { iso } from '../src/clock.js';
import { planOf, type Config } from '../src/config.js';
import { describeSendWindow } from '../src/sending/window.js';
import { warmup, type Warmup } from '../src/sending/warmup.js';
import { parisDay, reasonText } from '../src/texts.js';
import { blobKey } from '../src/blobs/store.js';
import { idTime } from '../src/ids.js';
import { readDocument, recordsInHistory } from './history-records.js';
import { historyRows, layoutOf, queueLayout, queueRow, rowDocument, type NamesLayout } from './history-names.js';
import type { InboxView, MessageView } from '../src/record-schemas.js';
import { isDeepStrictEqual } from 'node:util';
import { createHash } from 'node:crypto';

export type MessageStatus = MessageView['status'];

/**
 * A Message-ID received by an inbox, as the space's `msgids` hash files it: 96 bits of the SHA-256 of
 * both, in base64url. 16 characters take a 32-byte allocation where the inbox id and the header took
 * 64 (BENCHMARKS.md, "Redis memory per message"); two of a space's messages share one with a chance
 * below 10^-13 at 10^8 messages. Its value is the message's and the thread's id bodies (threadOfEntry).
 */
export const messageIdEntry = (inboxId: string, header: string): string =>
  createHash('sha256').update(`${inboxId} ${header}`).digest().subarray(0, 12).toString('base64url');
/** The message hash, as read (strings; '' for none): storedMessage fills in the fields its hash leaves out. */
export interface StoredMessage {
  id: string;
  thread_id: string;
  inbox_id: string;
  direction: 'outbound' | 'inbound';
  from: string;
  from_name: string;
  to: string;
  to_name: string;
  /** The copies (src/sending/recipients.ts storedCopies): JSON of { address, name }, '' for none. Inbound: its Cc header. */
  cc: string;
  /** The blind copies, outbound only, the same form: never in a header. */
  bcc: string;
  /** Inbound only: every address of its To header, the same form ('' when it named only the inbox): reply_all writes to them. */
  to_list: string;
  reply_to: string;
  subject: string;
  text: string;
  html: string;
  metadata: string;
  auto_reply: '0' | '1';
  status: MessageStatus;
  status_code: string;
  revision: string;
  created_at: string;
  sent_at: string;
  received_at: string;
  send_after: string;
  slot: string;
  any_time: '0' | '1';
  test: '0' | '1';
  key_id: string;
  message_id_header: string;
  in_reply_to: string;
  /** The id of the space's message its In-Reply-To names (the thread's latest when a reply was written, the one a received reply answers); '' when none. */
  in_reply_to_id: string;
  references: string;
  attempts: string;
  /** The campaign that wrote it (`cmp_...`), '' for any other message. */
  campaign_id: string;
  /** Inbound only (actors/inbound.ts): SPF/DKIM/DMARC/ARC verdicts, JSON. */
  auth_results?: string;
  /** Inbound only: why its text could not be read from its HTML (src/mail/sandbox.ts Unavailable); '' when it could or needed not. */
  text_unavailable: string;
  /** The attachment objects (src/record-schemas.ts AttachmentSchema), JSON; '' (or absent, older messages) for none. */
  attachments: string;
  /** Inbound only: where the raw source is in the blob store (`putSource`, src/blobs/store.ts); '' when none was kept. */
  source: string;
  /**
   * Bodies over 2 KB live in the blob store (docs/contract.md, Decision 10): `text:<sha256> html:<sha256>` for those,
   * their field then ''; '' (or absent) when both are inline. withBodies puts them back.
   */
  body_blobs: string;
}

/**
 * What a message field holds when its hash leaves it out. A new message's hash keeps only the fields
 * that differ (storedPairs): a dozen empty fields cost a received or sent message about 250 bytes of
 * Redis (BENCHMARKS.md, "Redis memory per message"); readers fill them back in (storedMessage). A fresh
 * literal each time, the record's own fields assigned onto it: `{ ...shared, ...fields }` measured
 * 12 µs a message against 0.4 (V8 clones a spread of a non-literal object property by property).
 */
const messageDefaults = () =>
  ({
    from: '',
    from_name: '',
    to: '',
    to_name: '',
    cc: '',
    bcc: '',
    to_list: '',
    reply_to: '',
    subject: '',
    text: '',
    html: '',
    metadata: '',
    auto_reply: '0',
    status_code: '',
    revision: '1',
    sent_at: '',
    send_after: '',
    slot: '',
    any_time: '0',
    test: '0',
    key_id: '',
    in_reply_to: '',
    in_reply_to_id: '',
    references: '[]',
    attempts: '0',
    attachments: '',
    body_blobs: '',
    campaign_id: '',
    source: '',
    text_unavailable: '',
  }) satisfies Partial<StoredMessage>;
const MESSAGE_DEFAULTS: Record<string, string> = messageDefaults();

/** The Message-ID header the service gives a message it sends: its id at its inbox's domain. */
export const outboundMessageIdHeader = (messageId: string, domain: string): string => `<${messageId}@${domain}>`;

/** When a message was received, as its hash keeps it or, left out ('' or none), its id's time for a received message ('' for another). */
export const receivedAtOf = (
  id: string,
  status: string | null | undefined,
  stored: string | null | undefined,
): string => stored || (status === 'received' ? iso(idTime(id)) : '');

/** A message's direction, which its status tells (only a received message is inbound); null without a status: no such message. */
export const directionOf = (status: string | null | undefined): StoredMessage['direction'] | null =>
  !status ? null : status === 'received' ? 'inbound' : 'outbound';

/**
 * What a message field is when its hash leaves it out: besides the defaults, the fields its id, status
 * and address imply. The id is never stored (the hash's key names it), nor its direction (its status
 * tells it), nor created_at when it is the id's time (both are drawn from one clock reading), nor a
 * sent message's Message-ID header when it is outboundMessageIdHeader of its id and its sender's
 * domain, nor a received message's received_at when it is the id's time: together 160 bytes of a sent
 * message's hash, 125 of a received one's (BENCHMARKS.md, "Redis memory per message").
 */
function impliedMessageField(
  message: Pick<StoredMessage, 'id' | 'status' | 'from'>,
  name: keyof StoredMessage,
): string | undefined {
  if (name === 'direction') return directionOf(message.status) ?? undefined;
  if (name === 'created_at') return iso(idTime(message.id));
  if (name === 'received_at') return receivedAtOf(message.id, message.status, null);
  if (name === 'message_id_header')
    return directionOf(message.status) === 'outbound'
      ? outboundMessageIdHeader(message.id, message.from.slice(message.from.lastIndexOf('@') + 1))
      : '';
  return MESSAGE_DEFAULTS[name];
}

/** The fields a reader of a message's Message-ID header asks its hash for; messageIdHeaderOf reads their answer. */
export const MESSAGE_ID_HEADER_FIELDS = ['message_id_header', 'status', 'from'] as const;
/** A message's Message-ID header from its MESSAGE_ID_HEADER_FIELDS, what the hash holds or, when it leaves it out, implies. */
export const messageIdHeaderOf = (id: string, [stored, status, from]: (string | null)[]): string =>
  stored ?? impliedMessageField({ id, status: status as MessageStatus, from: from ?? '' }, 'message_id_header')!;

/** A message as its hash was read, under the id that keys it: the fields the hash leaves out filled in. */
function completeMessage(id: string, message: StoredMessage): StoredMessage {
  message.id = id;
  message.direction ??= directionOf(message.status)!;
  message.created_at ??= impliedMessageField(message, 'created_at')!;
  message.received_at ??= impliedMessageField(message, 'received_at')!;
  message.message_id_header ??= impliedMessageField(message, 'message_id_header')!;
  return message;
}

/**
 * A received message's authentication verdicts (src/smtp/parse.ts authSummary) as its hash keeps them:
 * by position, `[spf, dmarc, arc, [[domain, selector, result] of each DKIM signature], header From]`,
 * the header From left off when it is the message's From; some 45 characters instead of 150
 * (BENCHMARKS.md, "Redis memory per message"). Verdicts of another shape are kept whole, as JSON.
 */
export function storedAuthResults(results: Record<string, unknown>, from: string): string {
  const { spf, dkim, dmarc, arc, header_from: headerFrom } = results;
  const signatures = Array.isArray(dkim)
    ? dkim.map((s: Record<string, unknown> | null) => [s?.domain, s?.selector, s?.result])
    : null;
  const packed = JSON.stringify([
    spf,
    dmarc,
    arc,
    signatures,
    ...(isDeepStrictEqual(headerFrom, from) ? [] : [headerFrom]),
  ]);
  return isDeepStrictEqual(authResultsOf(packed, from), results) ? packed : JSON.stringify(results);
}

/** The authentication verdicts of a received message from its hash's `auth_results` and its From; null for none. */
export function authResultsOf(stored: string | undefined, from: string): Record<string, unknown> | null {
  if (!stored) return null;
  const value = JSON.parse(stored) as unknown;
  if (!Array.isArray(value)) return value as Record<string, unknown>;
  const [spf, dmarc, arc, signatures, ...headerFrom] = value as [
    unknown,
    unknown,
    unknown,
    [unknown, unknown, unknown][] | null,
    ...unknown[],
  ];
  const dkim = signatures?.map(([domain, selector, result]) => ({ domain, selector, result })) ?? null;
  return { spf, dkim, dmarc, arc, header_from: headerFrom.length ? headerFrom[0] : from };
}

/** A new message's hash: every field, its default unless given (one shape for every writer). */
export function blankMessage(
  fields: Pick<
    StoredMessage,
    'id' | 'thread_id' | 'inbox_id' | 'direction' | 'status' | 'created_at' | 'received_at' | 'message_id_header'
  > &
    Partial<StoredMessage>,
): StoredMessage {
  return Object.assign(messageDefaults(), fields);
}

/** A message hash as read (a script's hashToTable), under the id that keys it: the fields it leaves out filled in. */
export const storedMessage = (id: string, fields: Record<string, string> | Partial<StoredMessage>): StoredMessage =>
  completeMessage(id, Object.assign(messageDefaults(), fields) as StoredMessage);

/** Whether a message field is worth a place in its hash: a reader gives it what it implies when absent (impliedMessageField). */
export const keepsMessageField = (message: StoredMessage, name: keyof StoredMessage, value: string): boolean =>
  name !== 'id' && impliedMessageField(message, name) !== value;

/** The field/value pairs a new hash keeps: the record's fields but those its reader fills in. */
export function storedPairs<R extends object>(
  record: R,
  keeps: (record: R, name: keyof R, value: string) => boolean,
): string[] {
  const pairs: string[] = [];
  for (const name in record) {
    const value = record[name] as string | undefined;
    if (value !== undefined && keeps(record, name, value)) pairs.push(name, value);
  }
  return pairs;
}

/** The campaign ref of a message's journal lines and events: none for a message no campaign wrote. */
export const campaignRef = (message: Pick<StoredMessage, 'campaign_id'>): { campaign_id?: string } =>
  message.campaign_id ? { campaign_id: message.campaign_id } : {};

/**
 * Every field name of a record type, from an object that must name each of them (a missing or unknown
 * name does not compile), one its hash always holds first: what its hash is read by (recordOf).
 */
const fieldNames = <R>(all: Record<keyof R, 0>): readonly (keyof R & string)[] =>
  Object.keys(all) as (keyof R & string)[];

type RedisPipeline = ReturnType<RedisClient['pipeline']>;

/**
 * Records are read by their field names (HMGET), not HGETALL: ioredis then decodes the values alone, not
 * the names too, and builds no object of its own (its HGETALL reply is filled name by name behind an
 * `in` check): an inbox read 26-28 -> 20-22 µs of CPU (BENCHMARKS.md, "Sending"). `values` are the HMGET's
 * answer: null when the hash does not exist (no first field); a field its hash leaves out keeps the default
 * `record` holds (absent for a field with none), as the same hash read whole.
 */
function recordOf<R>(names: readonly string[], values: (string | null)[], record: Record<string, string>): R | null {
  if (values[0] === null) return null;
  for (let i = 0; i < names.length; i++) {
    const value = values[i];
    if (value !== null && value !== undefined) record[names[i]!] = value;
  }
  return record as R;
}

const MESSAGE_FIELDS = fieldNames<Omit<StoredMessage, 'id'>>({
  status: 0,
  thread_id: 0,
  inbox_id: 0,
  direction: 0,
  from: 0,
  from_name: 0,
  to: 0,
  to_name: 0,
  cc: 0,
  bcc: 0,
  to_list: 0,
  reply_to: 0,
  subject: 0,
  text: 0,
  html: 0,
  metadata: 0,
  auto_reply: 0,
  status_code: 0,
  revision: 0,
  created_at: 0,
  sent_at: 0,
  received_at: 0,
  send_after: 0,
  slot: 0,
  any_time: 0,
  test: 0,
  key_id: 0,
  message_id_header: 0,
  in_reply_to: 0,
  in_reply_to_id: 0,
  references: 0,
  attempts: 0,
  campaign_id: 0,
  auth_results: 0,
  attachments: 0,
  source: 0,
  body_blobs: 0,
  text_unavailable: 0,
});

/** Queues the read of a message's hash (messageOf reads its answer). */
const queueMessage = (pipeline: RedisPipeline, spaceId: string, messageId: string): void =>
  queueFlat(pipeline, 'hmget', [spaceKeys(spaceId).message(messageId), ...MESSAGE_FIELDS]);
/** The message of this id as queueMessage read it, the fields its hash leaves out filled in; null when there is none. */
function messageOf(values: (string | null)[], id: string): StoredMessage | null {
  const message = recordOf<StoredMessage>(MESSAGE_FIELDS, values, messageDefaults());
  return message && completeMessage(id, message);
}

/**
 * The messages of these ids that exist, in order, their bodies from the blob store put back (withBodies):
 * one round trip to Redis, then, for ids not found there, a look in history (actors/history-records.ts).
 */
export async function readMessages(rt: Runtime, spaceId: string, ids: readonly string[]): Promise<StoredMessage[]> {
  if (!ids.length) return [];
  const pipeline = rt.redis.pipeline();
  for (const id of ids) queueMessage(pipeline, spaceId, id);
  const read = (await execAll<(string | null)[]>(pipeline)).map((values, i) => messageOf(values, ids[i]!));
  const missing = ids.filter((_, i) => read[i] === null);
  const inHistory = missing.length ? await recordsInHistory(rt, spaceId, missing) : null;
  const messages = read
    .map((message, i) => {
      const record = message ? null : inHistory?.get(ids[i]!);
      return record ? storedMessage(ids[i]!, record) : message;
    })
    .filter((message): message is StoredMessage => message !== null);
  return withBodies(rt, spaceId, messages);
}

/** The thread hash, as read (strings): storedThread fills in the fields its hash leaves out. */
export interface StoredThread {
  id: string;
  inbox_id: string;
  subject: string;
  /** The correspondent's address; '' when a received mail without a usable From opened the thread. */
  contact: string;
  contact_name: string;
  labels: string;
  archived: '0' | '1';
  unread: string;
  message_count: string;
  last_message_at: string;
  last_direction: 'inbound' | 'outbound';
  campaign_id: string;
  created_at: string;
  /** '1' once the correspondent wrote (an automatic reply does not count). */
  correspondent_wrote: '0' | '1';
  /** The start of its latest message's new part (src/mail/content.ts threadSnippet); '' when that had no text. */
  snippet: string;
  /** Received messages in the thread (lua/message/receiveInbound): what "mark unread" restores `unread` to. */
  inbound_count?: string;
  /**
   * The loop guard's window (docs/contract.md, Decision 9): `<ms> <message id>` of the outbound messages since the
   * correspondent last wrote, comma-separated, at most LOOP_MAX within LOOP_WINDOW_MS (lua/includes/loopWindow.lua).
   */
  loop_window?: string;
  /** The message ids of a thread of a few messages, oldest first, space-separated; past that they live in its sorted set (threadIdsIn). */
  msgs?: string;
  /** Set while the thread is in history (actors/history.ts): its document's SHA-256 in base64url; its message ids are there. */
  history?: string;
}

/** What a thread field holds when its hash leaves it out (as messageDefaults: about 64 bytes a thread). */
// last_direction `inbound`: a received message's thread leaves it out; a sent message writes `outbound`.
const threadDefaults = () =>
  ({
    contact_name: '',
    labels: '[]',
    archived: '0',
    unread: '0',
    last_direction: 'inbound',
    campaign_id: '',
    correspondent_wrote: '0',
    snippet: '',
  }) satisfies Partial<StoredThread>;
const THREAD_DEFAULTS: Record<string, string> = threadDefaults();

/** A new thread's hash: every field, its default unless given (one shape for every writer). */
export function blankThread(
  fields: Pick<StoredThread, 'id' | 'inbox_id' | 'subject' | 'contact' | 'last_direction' | 'created_at'> &
    Partial<StoredThread>,
): StoredThread {
  return Object.assign(threadDefaults(), { message_count: '0', last_message_at: fields.created_at }, fields);
}

/**
 * What a thread field is when its hash leaves it out: besides the defaults, as a message's
 * (impliedMessageField), its id (never stored), created_at when it is the id's time, and
 * last_message_at while it is the creation (a thread of one message).
 */
function impliedThreadField(
  thread: Pick<StoredThread, 'id' | 'created_at'>,
  name: keyof StoredThread,
): string | undefined {
  if (name === 'created_at') return iso(idTime(thread.id));
  if (name === 'last_message_at') return thread.created_at;
  return THREAD_DEFAULTS[name];
}

/** A thread as its hash was read, under the id that keys it: the fields the hash leaves out filled in. */
function completeThread(id: string, thread: StoredThread): StoredThread {
  thread.id = id;
  thread.created_at ??= impliedThreadField(thread, 'created_at')!;
  thread.last_message_at ??= impliedThreadField(thread, 'last_message_at')!;
  return thread;
}

/** A thread hash as read (a script's hashToTable), under the id that keys it: the fields it leaves out filled in. */
export const storedThread = (id: string, fields: Record<string, string> | Partial<StoredThread>): StoredThread =>
  completeThread(id, Object.assign(threadDefaults(), fields) as StoredThread);

const THREAD_FIELDS = fieldNames<Omit<StoredThread, 'id'>>({
  inbox_id: 0,
  subject: 0,
  contact: 0,
  contact_name: 0,
  labels: 0,
  archived: 0,
  unread: 0,
  message_count: 0,
  last_message_at: 0,
  last_direction: 0,
  campaign_id: 0,
  created_at: 0,
  correspondent_wrote: 0,
  inbound_count: 0,
  loop_window: 0,
  msgs: 0,
  snippet: 0,
  history: 0,
});

/** Fields a thread's hash usually leaves out (their defaults, or implied): last in a packed row, where nulls are trimmed. */
const USUALLY_ABSENT: readonly string[] = ['labels', 'archived', 'last_direction', 'campaign_id', 'created_at'];

/**
 * A thread's row as the move packs it into history (lua/history/moveThread-5.lua): the values of these
 * fields in this order, null for one absent, trailing nulls left out; `history` first (rowDocument reads
 * it there), those its document keeps (msgs, loop_window) left out.
 */
export const HISTORY_ROW_FIELDS = [
  'history',
  ...THREAD_FIELDS.filter((field) => !['msgs', 'loop_window', 'history', ...USUALLY_ABSENT].includes(field)),
  ...USUALLY_ABSENT,
];

/** A packed history row's fields, those it holds. */
export function historyRowFields(packed: string): Record<string, string> {
  const values = JSON.parse(packed) as (string | null)[];
  return Object.fromEntries(
    HISTORY_ROW_FIELDS.flatMap((field, i) => {
      const value = values[i];
      return typeof value === 'string' ? [[field, value]] : [];
    }),
  );
}

/** The thread of this id from the values of its hash's THREAD_FIELDS, the fields it leaves out filled in; null when there is none. */
function threadOf(values: (string | null)[], id: string): StoredThread | null {
  const thread = recordOf<StoredThread>(THREAD_FIELDS, values, threadDefaults());
  return thread && completeThread(id, thread);
}

/**
 * These threads (null: the space has none of that id), from their hashes in one round trip; those of
 * threads in history from their rows in the name buckets (actors/history-names.ts), a thread brought
 * back between the two reads from its hash again. With the names' `layout` already read (a search
 * reads it beside its segments) each row is read with its hash; else the layout is: a thread without a
 * hash costs one round trip more, not two.
 */
export async function readThreads(
  rt: Runtime,
  spaceId: string,
  ids: readonly string[],
  layout?: NamesLayout,
): Promise<(StoredThread | null)[]> {
  const readHashes = async (of: readonly string[], known?: NamesLayout) => {
    const reads = rt.redis.pipeline();
    for (const id of of) queueFlat(reads, 'hmget', [spaceKeys(spaceId).thread(id), ...THREAD_FIELDS]);
    if (known) for (const id of of) queueRow(reads, spaceId, id, known);
    else queueLayout(reads, spaceId);
    const replies = await execAll<unknown>(reads);
    const row = (i: number) => (known ? (replies[of.length + i] as string | null) : null);
    return {
      threads: of.map((id, i) => {
        const packed = row(i);
        return (
          threadOf(replies[i] as (string | null)[], id) ?? (packed ? storedThread(id, historyRowFields(packed)) : null)
        );
      }),
      layout: known ? undefined : layoutOf(replies[of.length] as (string | null)[]),
    };
  };
  const { threads, layout: read } = await readHashes(ids, layout);
  const absent = ids.filter((_, i) => !threads[i]);
  if (!absent.length) return threads;
  const rows = await historyRows(rt, spaceId, absent, read);
  const gone = absent.filter((_, i) => rows[i] === null);
  const back = new Map((await readHashes(gone)).threads.map((thread, i) => [gone[i]!, thread]));
  const found = new Map(
    absent.map((id, i) => {
      const packed = rows[i];
      return [id, packed ? storedThread(id, historyRowFields(packed)) : (back.get(id) ?? null)];
    }),
  );
  return threads.map((thread, i) => thread ?? found.get(ids[i]!) ?? null);
}

export async function readThread(rt: Runtime, spaceId: string, threadId: string): Promise<StoredThread | null> {
  return (await readThreads(rt, spaceId, [threadId]))[0]!;
}

/**
 * A thread's message ids, oldest first, from where the thread keeps them (lua/includes/fileInThread.lua):
 * its hash's `msgs` field when it has one, else the ids read from its sorted set (`fromSet`, a range the
 * reader chose; it applies the same range to the field's ids through `range`).
 */
export const threadIdsIn = (
  inHash: string | null | undefined,
  fromSet: string[],
  range: (ids: string[]) => string[],
): string[] => (inHash ? range(inHash.split(' ')) : fromSet);

/**
 * A thread's message ids (threadIdsIn): `setRange` queues a range of its sorted set, `range` takes the
 * same of the field's ids (or of its history document's, for a thread in history). A thread already
 * read (its hash, `msgs` included) costs no read when its hash holds them; a thread known by its id
 * alone, one round trip for both places.
 */
export async function readThreadIds(
  rt: Runtime,
  spaceId: string,
  thread: string | Pick<StoredThread, 'id' | 'msgs' | 'history'>,
  setRange: (pipeline: ReturnType<RedisClient['pipeline']>, setKey: string) => unknown,
  range: (ids: string[]) => string[],
): Promise<string[]> {
  if (typeof thread !== 'string' && thread.history) return range((await readDocument(rt, spaceId, thread.history)).ids);
  if (typeof thread !== 'string' && thread.msgs) return range(thread.msgs.split(' '));
  const threadId = typeof thread === 'string' ? thread : thread.id;
  const keys = spaceKeys(spaceId);
  const pipeline = rt.redis.pipeline();
  if (typeof thread === 'string') pipeline.hget(keys.thread(threadId), 'msgs');
  setRange(pipeline, keys.threadMessages(threadId));
  const replies = await execAll<string | null | string[]>(pipeline);
  if (typeof thread !== 'string') return replies[0] as string[];
  const inHash = replies[0] as string | null;
  const ids = threadIdsIn(inHash, replies[1] as string[], range);
  if (ids.length || inHash) return ids;
  // None in Redis: a thread in history has them in its document.
  const [row] = await historyRows(rt, spaceId, [threadId]);
  return row ? range((await readDocument(rt, spaceId, rowDocument(row))).ids) : ids;
}

/** Whether a thread field is worth a place in its hash: a reader gives it what it implies when absent (impliedThreadField). */
export const keepsThreadField = (thread: StoredThread, name: keyof StoredThread, value: string): boolean =>
  name !== 'id' && impliedThreadField(thread, name) !== value;

export async function readMessage(rt: Runtime, spaceId: string, messageId: string): Promise<StoredMessage | null> {
  return (await readMessages(rt, spaceId, [messageId]))[0] ?? null;
}

/** A message's text alone, with its place in the blob store when it lives there: what snippets, events and the index read (never the HTML). */
export const textOnly = (text: string, bodyBlobs: string) => ({
  text,
  html: '',
  body_blobs: bodyBlobs
    .split(' ')
    .filter((entry) => entry.startsWith('text:'))
    .join(' '),
});

/** Fills in the bodies kept in the blob store (`body_blobs`), one read per body, all at once; answers the same messages. */
export async function withBodies<M extends Pick<StoredMessage, 'text' | 'html' | 'body_blobs'>>(
  rt: Runtime,
  spaceId: string,
  messages: M[],
): Promise<M[]> {
  const reads: Promise<void>[] = [];
  for (const message of messages) {
    for (const entry of (message.body_blobs ?? '').split(' ').filter(Boolean)) {
      const [field, sha] = entry.split(':') as ['text' | 'html', string];
      reads.push(
        rt.ports.blobs.get(blobKey(spaceId, sha)).then((bytes) => {
          if (!bytes) throw new Error(`the ${field} of a message of ${spaceId} is missing from the blob store`);
          message[field] = bytes.toString('utf8');
        }),
      );
    }
  }
  await Promise.all(reads);
  return messages;
}

export type InboxStatus = 'active' | 'suspended' | 'deleted';

/** The inbox hash, as stored (string fields; '' for none). */
export interface StoredInbox {
  id: string;
  address: string;
  username: string;
  domain: string;
  display_name: string;
  shared: '1' | '0';
  status: InboxStatus;
  status_changed_at: string;
  status_reason: string;
  review: 'none' | 'requested';
  review_requested_at: string;
  review_message: string;
  created_at: string;
  created_by: string;
  deleted_at: string;
  /** The exact JSON of its address claim, so deletion can update that claim and nothing else. */
  claim: string;
  /** Counters kept by the message scripts: drafts awaiting approval, messages waiting to leave. */
  drafts?: string;
  queued?: string;
}

/** What an inbox object shows beyond its hash: the next departure and today's sends. */
interface InboxLive {
  next: number | null;
  sentToday: number;
}

/** A message's recipient (from history for a thread there), or null when the message does not exist. */
export async function messageRecipient(rt: Runtime, spaceId: string, messageId: string): Promise<string | null> {
  const live = await rt.redis.hget(spaceKeys(spaceId).message(messageId), 'to');
  return live ?? (await recordsInHistory(rt, spaceId, [messageId])).get(messageId)?.to ?? null;
}

const INBOX_FIELDS = fieldNames<StoredInbox>({
  id: 0,
  address: 0,
  username: 0,
  domain: 0,
  display_name: 0,
  shared: 0,
  status: 0,
  status_changed_at: 0,
  status_reason: 0,
  review: 0,
  review_requested_at: 0,
  review_message: 0,
  created_at: 0,
  created_by: 0,
  deleted_at: 0,
  claim: 0,
  drafts: 0,
  queued: 0,
});

/** Queues the read of an inbox's hash (inboxOf reads its answer). */
export const queueInbox = (pipeline: RedisPipeline, spaceId: string, inboxId: string): void =>
  queueFlat(pipeline, 'hmget', [spaceKeys(spaceId).inbox(inboxId), ...INBOX_FIELDS]);
/** An inbox as queueInbox read it; null when there is none. */
export const inboxOf = (values: (string | null)[]): StoredInbox | null => recordOf(INBOX_FIELDS, values, {});

export async function readInbox(rt: Runtime, spaceId: string, inboxId: string): Promise<StoredInbox | null> {
  return inboxOf(await rt.redis.hmget(spaceKeys(spaceId).inbox(inboxId), ...INBOX_FIELDS));
}

async function sentToday(rt: Runtime, spaceId: string, inboxId: string, day: string): Promise<number> {
  return Number((await rt.redis.hget(spaceKeys(spaceId).inboxSlots(inboxId), `sent:${day}`)) ?? 0);
}

/** The inbox object with its live figures: next departure and today's sends. */
export async function liveInboxView(
  rt: Runtime,
  plan: string,
  spaceId: string,
  inbox: StoredInbox,
): Promise<InboxView> {
  const keys = spaceKeys(spaceId);
  const now = rt.clock.now();
  const [head, sent] = await Promise.all([
    rt.redis.zrange(keys.inboxQueue(inbox.id), '0', '0', 'WITHSCORES'),
    sentToday(rt, spaceId, inbox.id, parisDay(now)),
  ]);
  return inboxView(rt.config, plan, inbox, now, { next: head[1] ? Number(head[1]) : null, sentToday: sent });
}

/** The inbox's warm-up at `nowMs` under the space's plan: `step` is today's quota of departures. */
export const warmupOf = (config: Config, plan: string, inbox: StoredInbox, nowMs: number): Warmup =>
  warmup(Date.parse(inbox.created_at), nowMs, planOf(config, plan).daily_max);

export function inboxView(config: Config, plan: string, inbox: StoredInbox, nowMs: number, live: InboxLive): InboxView {
  const dailyMax = planOf(config, plan).daily_max;
  const steps = warmupOf(config, plan, inbox, nowMs);
  const sentToday = live.sentToday;
  return {
    id: inbox.id,
    address: inbox.address,
    display_name: inbox.display_name,
    drafts: Number(inbox.drafts ?? 0),
    queued: Number(inbox.queued ?? 0),
    next_send_at: live.next ? iso(live.next) : null,
    quota: {
      daily_quota: steps.step,
      daily_max: dailyMax,
      sent_today: sentToday,
      remaining_today: Math.max(0, steps.step - sentToday),
    },
    send_window: describeSendWindow(config.sendWindow),
    shared: inbox.shared === '1',
    status: inbox.status,
    status_changed_at: inbox.status_changed_at || null,
    status_reason: inbox.status_reason ? reasonText(inbox.status_reason) : null,
    suspension:
      inbox.status === 'suspended' ? { review: inbox.review, requested_at: inbox.review_requested_at || null } : null,
    warmup: steps,
  };
}
