/**
 * A thread's history document (docs/architecture.md, "History"): what Redis dropped of a thread moved
 * into history, one gzipped JSON blob in the blob store, and the readers that answer from it as from
 * Redis. Documents are immutable (named by their SHA-256): each process keeps the ones it read lately
 * (actors/blob-documents.ts), so that paging through a thread reads its blob once. A leaf of the actors:
 * stored-records.ts falls back on it for a message no longer in Redis.
 */
import { spaceKeys } from '../src/redis/keys.js';
import type { Runtime } from '../src/runtime.js';
import { readBlobDocument } from './blob-documents.js';
import { historyRows, messageName, rowDocument, threadsOfNames } from './history-names.js';

/** What a history document holds: everything the move dropped from Redis, as Redis held it. */
export interface HistoryDocument {
  /** The thread's message ids, oldest first, and whether its hash held them (`msgs`) or its sorted set. */
  ids: string[];
  idsInHash: boolean;
  /** The thread's loop guard window, when it had one. */
  loop_window?: string;
  /** Each message's hash as stored (field, value, ...), in the order of `ids`. */
  messages: string[][];
  /** The messageIds entries of its received messages (field, value, ...). */
  msgids: string[];
  /** When it was written (ms): a thread moved again, after coming back, never writes the bytes of a blob the sweep may be removing. */
  at: number;
}

/** A thread's history document, from the cache or the blob store; it must be there while its thread names it. */
export const readDocument = (rt: Runtime, spaceId: string, ref: string): Promise<HistoryDocument> =>
  readBlobDocument<HistoryDocument>(rt, spaceId, ref);

/** A message hash as a document keeps it (field, value, ...), as an object of its fields. */
export function recordOfPairs(pairs: string[]): Record<string, string> {
  const record: Record<string, string> = {};
  for (let i = 0; i < pairs.length; i += 2) record[pairs[i]!] = pairs[i + 1]!;
  return record;
}

/**
 * The hashes, as stored, of the messages of these ids whose thread is in history (found by their
 * names, then their threads' documents); ids in neither place are absent from the answer. A thread
 * brought back between the two reads has its messages in Redis again: they are read there.
 */
export async function recordsInHistory(
  rt: Runtime,
  spaceId: string,
  ids: readonly string[],
): Promise<Map<string, Record<string, string>>> {
  const found = new Map<string, Record<string, string>>();
  if (!ids.length) return found;
  const threads = await threadsOfNames(rt, spaceId, ids.map(messageName));
  const named = [...new Set(threads.filter((id): id is string => id !== null))];
  if (!named.length) return found;
  const keys = spaceKeys(spaceId);
  const refs = new Map(named.map((threadId, i) => [threadId, i]));
  const answers = (await historyRows(rt, spaceId, named)).map((row) => row && rowDocument(row));
  const back = ids.filter((_, i) => threads[i] && !answers[refs.get(threads[i])!]);
  const wanted = new Set(ids);
  await Promise.all([
    ...named.map(async (threadId, i) => {
      if (!answers[i]) return;
      const document = await readDocument(rt, spaceId, answers[i]);
      document.ids.forEach((id, j) => {
        if (wanted.has(id)) found.set(id, recordOfPairs(document.messages[j]!));
      });
    }),
    ...back.map(async (id) => {
      const record = await rt.redis.hgetall(keys.message(id));
      if (Object.keys(record).length) found.set(id, record);
    }),
  ]);
  return found;
}

/**
 * Rows of message fields as a reader read them from Redis (an HMGET of `fields` a message, in the
 * order of `ids`), those of messages no longer there (every value null) filled in from their threads'
 * history documents: what the event feed, the journal and search put back of a message.
 */
export async function withFieldsInHistory(
  rt: Runtime,
  spaceId: string,
  ids: readonly string[],
  fields: readonly string[],
  rows: (string | null)[][],
): Promise<(string | null)[][]> {
  const gone = ids.filter((_, i) => rows[i]!.every((value) => value === null));
  if (!gone.length) return rows;
  const found = await recordsInHistory(rt, spaceId, gone);
  return rows.map((row, i) => {
    const record = found.get(ids[i]!);
    return record ? fields.map((field) => record[field] ?? null) : row;
  });
}
