/**
 * History (docs/architecture.md, "History"; decisions 18): Redis holds the working set, the blob store
 * the rest. A thread without activity for ARCHIVE_AFTER_DAYS, none of its messages a draft, queued or
 * sending, moves: its messages' hashes, its list of message ids, its loop guard window and its received
 * messages' Message-ID entries go into one gzipped document, written durably, and only then leave
 * Redis (lua/history/moveThread-5.lua); the thread's hash is packed into its row in the name buckets
 * (actors/history-names.ts rowPlace), which list_threads and search read, naming the document
 * (`history`). Readers answer from the document as from Redis (actors/history-records.ts); new mail on
 * the thread, a report about one of its messages or a classification brings it back first
 * (lua/history/bringBack-5.lua). Not to be confused with classify_thread's `archived`,
 * the human's filing of a thread out of the inbox view: a thread of either kind may be in history.
 */
import { gzipSync } from 'node:zlib';
import { blobSetMember } from '../src/blobs/store.js';
import { idBody } from '../src/ids.js';
import { spaceKeys } from '../src/redis/keys.js';
import { execAll } from '../src/redis/pipeline.js';
import type { Runtime } from '../src/runtime.js';
import * as historyLua from './bindings/history.generated.js';
import {
  layoutText,
  documentName,
  messageName,
  namePlace,
  historyRows,
  readLayout,
  receivedName,
  rowPlace,
  roomForNames,
  threadsOfNames,
  type NamesLayout,
} from './history-names.js';
import { readDocument, type HistoryDocument } from './history-records.js';
import { HISTORY_ROW_FIELDS, historyRowFields, messageIdEntry } from './stored-records.js';
import { moveToSegments } from './search-segments.js';
import { trimEvents } from './events.js';
import { moveJournalDays } from './journal-history.js';

/** Statuses that keep a thread in Redis: the message still has to be approved or to leave. */
const UNFINISHED = new Set(['draft', 'queued', 'sending']);

/** What looking at a thread did: moved it, left it for a message still unfinished, or found it changed or gone. */
export type Looked = 'moved' | 'waiting' | 'stale';

/** The field names of a list of field, value pairs (a messageIds entry list). */
const fieldsOf = (pairs: string[]): string[] => pairs.filter((_, i) => i % 2 === 0);

/**
 * The keys a move or a return writes, the name buckets last, and the place of each name and of the
 * thread's row as the scripts take it: its bucket's index in KEYS (1-based, after the thread's five keys
 * and its messages'), its field.
 */
function historyKeys(spaceId: string, threadId: string, ids: string[], names: string[], layout: NamesLayout) {
  const keys = spaceKeys(spaceId);
  const placed = names.map((name) => namePlace(name, layout));
  const row = rowPlace(threadId, layout);
  const buckets = [...new Set([row, ...placed].map((place) => place.bucket))];
  const inKeys = (place: { bucket: number; field: string }) => [
    6 + ids.length + buckets.indexOf(place.bucket),
    place.field,
  ];
  return {
    keys: {
      thread: keys.thread(threadId),
      threadMessages: keys.threadMessages(threadId),
      messageIds: keys.messageIds,
      history: keys.history,
      threads: keys.historyThreads,
      records: [...ids.map((id) => keys.message(id)), ...buckets.map((bucket) => keys.historyNames(bucket))],
    },
    names: JSON.stringify(placed.map(inKeys)),
    row: JSON.stringify(inKeys(row)),
    body: idBody(threadId),
  };
}

/** A thread's names in history: each message's id, each received message's Message-ID entry, its document's (base64url SHA-256). */
const namesOf = (ids: string[], msgids: string[], ref: string): string[] => [
  ...ids.map(messageName),
  ...fieldsOf(msgids).map(receivedName),
  documentName(ref),
];

/** A thread that may move, as read: its hash, its message ids and their hashes. */
interface Movable {
  threadId: string;
  fields: Record<string, string>;
  ids: string[];
  messages: Record<string, string>[];
}

/** Reads a thread to move it: 'waiting' while a message is unfinished, 'stale' when it is not idle or not there. */
async function readMovable(rt: Runtime, spaceId: string, threadId: string): Promise<Movable | Looked> {
  const keys = spaceKeys(spaceId);
  const [thread, set, activity] = await execAll<Record<string, string> | string[] | string | null>(
    rt.redis
      .pipeline()
      .hgetall(keys.thread(threadId))
      .zrange(keys.threadMessages(threadId), '0', '-1')
      .zscore(keys.threads, threadId),
  );
  const fields = thread as Record<string, string>;
  const idle = activity !== null && Number(activity) <= rt.clock.now() - rt.config.history.afterMs;
  if (!fields.inbox_id || !idle) return 'stale';
  const ids = fields.msgs ? fields.msgs.split(' ') : (set as string[]);
  if (!ids.length) return 'stale';
  const reads = rt.redis.pipeline();
  for (const id of ids) reads.hgetall(keys.message(id));
  const messages = await execAll<Record<string, string>>(reads);
  if (messages.some((message) => !message.status)) return 'stale';
  if (messages.some((message) => UNFINISHED.has(message.status!))) return 'waiting';
  return { threadId, fields, ids, messages };
}

/**
 * Moves a thread as read into history: its document written to the blob store (durable when `put`
 * answers), then Redis's records dropped, if the thread is still as read. A crash between the two
 * leaves the thread in Redis, readable, and a document no record names (the blob sweep removes it);
 * the next visit moves it again. A thread moves whole: its document is built in memory (bodies over
 * 2 KB and files stay where they are, in the blob store).
 */
async function writeMove(rt: Runtime, spaceId: string, { threadId, fields, ids, messages }: Movable): Promise<Looked> {
  const document: HistoryDocument = {
    ids,
    idsInHash: Boolean(fields.msgs),
    ...(fields.loop_window ? { loop_window: fields.loop_window } : {}),
    messages: messages.map((message) => Object.entries(message).flat()),
    msgids: await receivedEntries(rt, spaceId, ids, messages),
    at: rt.clock.now(),
  };
  const blob = await rt.ports.blobs.put(spaceId, gzipSync(JSON.stringify(document)));
  const ref = blobSetMember(blob.sha256);
  const names = namesOf(ids, document.msgids, ref);
  // Its names and its row.
  const layout = await roomForNames(rt, spaceId, names.length + 1);
  const written = historyKeys(spaceId, threadId, ids, names, layout);
  const reply = await historyLua.moveThread(rt.scripts, written.keys, {
    sha: ref,
    activity: fields.last_message_at ?? '',
    layout: layoutText(layout),
    messages: ids.length,
    names: written.names,
    msgids: JSON.stringify(fieldsOf(document.msgids)),
    body: written.body,
    fields: JSON.stringify(HISTORY_ROW_FIELDS),
    row: written.row,
  });
  return 'moved' in reply ? 'moved' : 'stale';
}

/** Threads read, their words moved to the search segments, then moved, at a time: what a visit holds in memory. */
const MOVE_BATCH = 200;

/**
 * Moves these threads into history when they may go (idle since ARCHIVE_AFTER_DAYS, every message
 * finished), a batch at a time: their words first leave the live search index for the search segments
 * (actors/search-segments.ts), then each thread moves (writeMove). Answers what was done to each.
 */
async function moveThreads(rt: Runtime, spaceId: string, threadIds: string[]): Promise<Looked[]> {
  const looked: Looked[] = [];
  for (let from = 0; from < threadIds.length; from += MOVE_BATCH) {
    const read: (Movable | Looked)[] = [];
    for (const threadId of threadIds.slice(from, from + MOVE_BATCH))
      read.push(await readMovable(rt, spaceId, threadId));
    const movable = read.filter((one): one is Movable => typeof one !== 'string');
    if (movable.length)
      await moveToSegments(
        rt,
        spaceId,
        movable.map((one) => one.threadId),
      );
    for (const one of read) looked.push(typeof one === 'string' ? one : await writeMove(rt, spaceId, one));
  }
  return looked;
}

/** Moves one thread into history when it may go (moveThreads). */
export async function moveThread(rt: Runtime, spaceId: string, threadId: string): Promise<Looked> {
  return (await moveThreads(rt, spaceId, [threadId]))[0]!;
}

/** The messageIds entries (field, value, ...) of the received messages among these, those that name them. */
async function receivedEntries(
  rt: Runtime,
  spaceId: string,
  ids: string[],
  messages: Record<string, string>[],
): Promise<string[]> {
  const received = ids
    .map((id, i) => ({ id, message: messages[i]! }))
    .filter(({ message }) => message.status === 'received' && message.message_id_header);
  if (!received.length) return [];
  const fields = received.map(({ message }) => messageIdEntry(message.inbox_id!, message.message_id_header!));
  const values = await rt.redis.hmget(spaceKeys(spaceId).messageIds, ...fields);
  // A message received again under the same Message-ID was refused as a duplicate: the entry names the first.
  return fields.flatMap((field, i) => (values[i]?.startsWith(idBody(received[i]!.id)) ? [field, values[i]] : []));
}

/** Attempts at a return before giving up: each failed one saw another worker split the names or move the thread. */
const RETURN_ATTEMPTS = 5;

/**
 * Brings a thread back from history when it is there (new mail on it, a report about one of its
 * messages, a classification): its hash from its row, and everything its document holds, written back
 * to Redis as it was. It joins the threads the
 * next visit looks at, so that one that got no new activity (a late bounce) goes back into history.
 */
export async function bringBack(rt: Runtime, spaceId: string, threadId: string): Promise<void> {
  const keys = spaceKeys(spaceId);
  for (let attempt = 0; attempt < RETURN_ATTEMPTS; attempt++) {
    const layout = await readLayout(rt, spaceId);
    const [packed] = await historyRows(rt, spaceId, [threadId], layout);
    if (!packed) return;
    const { history: ref, ...row } = historyRowFields(packed);
    const document = await readDocument(rt, spaceId, ref!);
    const written = historyKeys(spaceId, threadId, document.ids, namesOf(document.ids, document.msgids, ref!), layout);
    const fields = {
      ...row,
      ...(document.idsInHash ? { msgs: document.ids.join(' ') } : {}),
      ...(document.loop_window ? { loop_window: document.loop_window } : {}),
    };
    const reply = await historyLua.bringBack(rt.scripts, written.keys, {
      packed,
      layout: layoutText(layout),
      messages: document.ids.length,
      records: JSON.stringify(document.messages),
      thread: JSON.stringify({
        fields: Object.entries(fields).flat(),
        ...(document.idsInHash ? {} : { set: document.ids }),
      }),
      msgids: JSON.stringify(document.msgids),
      names: written.names,
      body: written.body,
      row: written.row,
    });
    if ('back' in reply) {
      await rt.redis.sadd(keys.historyWaiting, threadId);
      return;
    }
  }
  throw new Error(`thread ${threadId} of ${spaceId} could not be brought back from history`);
}

const inHistory = (reply: object): reply is { history: true } => 'history' in reply;

/**
 * Runs a script that writes into a thread and refuses, writing nothing, when the thread is in history
 * (`{ history: true }`: it went there after its caller read it); once more after bringing it back.
 */
export async function outsideHistory<R extends object>(
  rt: Runtime,
  spaceId: string,
  threadId: string,
  run: () => Promise<R>,
): Promise<Exclude<R, { history: true }>> {
  const first = await run();
  if (!inHistory(first)) return first as Exclude<R, { history: true }>;
  await bringBack(rt, spaceId, threadId);
  const second = await run();
  if (inHistory(second)) throw new Error(`thread ${threadId} of ${spaceId} went back into history at once`);
  return second as Exclude<R, { history: true }>;
}

/**
 * Makes sure the message of this id is in Redis: a message of a thread in history brings its thread
 * back. Answers whether the space has such a message (a return path naming one of ours).
 */
export async function liveMessage(rt: Runtime, spaceId: string, messageId: string): Promise<boolean> {
  if ((await rt.redis.exists(spaceKeys(spaceId).message(messageId))) === 1) return true;
  const [threadId] = await threadsOfNames(rt, spaceId, [messageName(messageId)]);
  if (!threadId) return false;
  await bringBack(rt, spaceId, threadId);
  return (await rt.redis.exists(spaceKeys(spaceId).message(messageId))) === 1;
}

/**
 * The thread in history of the first Message-ID a received mail cites that names one of its messages
 * (`own`: the message id of one of our Message-IDs; else one the inbox received), or null.
 */
export async function citedInHistory(
  rt: Runtime,
  spaceId: string,
  inboxId: string,
  cited: { header: string; own: string | null }[],
): Promise<string | null> {
  const names = cited.flatMap(({ header, own }) => [
    ...(own ? [messageName(own)] : []),
    receivedName(messageIdEntry(inboxId, header)),
  ]);
  return (await threadsOfNames(rt, spaceId, names)).find((threadId) => threadId !== null) ?? null;
}

/** What a visit of a space did, and when the space needs the next one (ms). */
export interface Visit {
  moved: number;
  next: number;
}

/**
 * Looks at the space's threads idle since before `now - ARCHIVE_AFTER_DAYS` (the activity mark `to`
 * says which were looked at already) and at those left waiting before, at most `budget`, and moves
 * those that may go. The next visit is due when the next thread turns idle, at once when the budget
 * ran out, within an hour while some wait for a message to leave.
 */
export async function visitSpace(rt: Runtime, spaceId: string, budget: number): Promise<Visit> {
  const keys = spaceKeys(spaceId);
  const now = rt.clock.now();
  const { afterMs } = rt.config.history;
  const cutoff = now - afterMs;
  // A quiet space appends no event that would trim its stream: the visit does.
  await trimEvents(rt, spaceId, now);
  const [to, waiting] = await execAll<string | null | string[]>(
    rt.redis.pipeline().hget(keys.history, 'to').srandmember(keys.historyWaiting, budget),
  );
  const journalDue = await moveJournalDays(rt, spaceId, now);
  const from = to === null ? '-inf' : `(${to as string}`;
  const idle = await rt.redis.zrangebyscore(keys.threads, from, cutoff, 'WITHSCORES', 'LIMIT', 0, budget);
  const candidates: { id: string; score: number | null }[] = [];
  for (let i = 0; i < idle.length; i += 2) candidates.push({ id: idle[i]!, score: Number(idle[i + 1]) });
  for (const id of waiting as string[]) candidates.push({ id, score: null });
  let moved = 0;
  const looked = await moveThreads(
    rt,
    spaceId,
    candidates.map(({ id }) => id),
  );
  for (const [i, { id, score }] of candidates.entries()) {
    if (looked[i] === 'moved') moved++;
    if (looked[i] === 'waiting') await rt.redis.sadd(keys.historyWaiting, id);
    else if (score === null) await rt.redis.srem(keys.historyWaiting, id);
  }
  const full = idle.length === 2 * budget;
  if (idle.length) {
    const [first, last] = [Number(idle[1]), Number(idle[idle.length - 1])];
    // A full batch may have left threads of its last ms: the next visit reads that ms again (its moved
    // threads are found in history and skipped), unless the whole batch was of one ms.
    await rt.redis.hset(keys.history, 'to', String(full && first < last ? last - 1 : last));
  }
  if (full) return { moved, next: now };
  const [, nextScore] = await rt.redis.zrangebyscore(keys.threads, `(${cutoff}`, '+inf', 'WITHSCORES', 'LIMIT', 0, 1);
  const turnsIdle = nextScore === undefined ? now + afterMs : Number(nextScore) + afterMs;
  const stillWaiting = await rt.redis.scard(keys.historyWaiting);
  return { moved, next: Math.min(journalDue, stillWaiting ? Math.min(turnsIdle, now + 3_600_000) : turnsIdle) };
}
