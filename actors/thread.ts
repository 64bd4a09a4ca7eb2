/**
 * Threads: a conversation of an inbox with one correspondent. Outbound first messages open one;
 * answers (ours with reply_to_thread, theirs over SMTP) join it. Fields are a hash under the space tag.
 */
import type { Runtime } from '../src/runtime.js';
import { spaceKeys } from '../src/redis/keys.js';
import { MailboxError } from '../src/errors.js';
import * as threadLua from './bindings/thread.generated.js';
import { lineArgs, prepareLine } from './journal.js';
import {
  readMessages,
  readThread,
  readThreadIds,
  readThreads,
  storedMessage,
  storedThread,
  withBodies,
  type StoredMessage,
  type StoredThread,
} from './stored-records.js';
import { actorOf, type Access } from './space.js';
import { readDocument, recordOfPairs } from './history-records.js';
import { outsideHistory } from './history.js';
import type { ThreadView } from '../src/record-schemas.js';

export function threadView(thread: StoredThread): ThreadView {
  return {
    id: thread.id,
    inbox_id: thread.inbox_id,
    subject: thread.subject,
    contact: thread.contact || null,
    contact_name: thread.contact_name || null,
    snippet: thread.snippet,
    labels: thread.labels ? (JSON.parse(thread.labels) as string[]) : [],
    archived: thread.archived === '1',
    unread: Number(thread.unread || 0) > 0,
    message_count: Number(thread.message_count || 0),
    last_message_at: thread.last_message_at,
    last_direction: thread.last_direction,
    campaign_id: thread.campaign_id || null,
    created_at: thread.created_at,
  };
}

/** A thread the calling key may see (its inbox among the key's); others are `not_found`. */
export async function visibleThread(rt: Runtime, access: Access, threadId: string): Promise<StoredThread> {
  const thread = await readThread(rt, access.space.id, threadId);
  const own = access.key.inbox_ids;
  if (!thread || (own && !own.includes(thread.inbox_id))) {
    throw new MailboxError('not_found', null, { reason: "Ce fil n'existe pas pour cette clé." });
  }
  return thread;
}

/**
 * A page of the thread's messages in order, after the message id `after`: one read of the ids (one
 * more than the page, to know whether more follow), then the page's hashes in one pipeline. `last`
 * is the page's last id, the next page's `after`.
 */
export async function threadMessages(
  rt: Runtime,
  spaceId: string,
  thread: StoredThread,
  after: string | null,
  limit: number,
): Promise<{ stored: StoredMessage[]; last: string | null; more: boolean }> {
  if (thread.history) return messagesInHistory(rt, spaceId, thread.history, after, limit);
  const ids = await readThreadIds(
    rt,
    spaceId,
    thread,
    (pipeline, set) => pipeline.zrangebylex(set, after ? `(${after}` : '-', '+', 'LIMIT', 0, limit + 1),
    (all) => all.filter((id) => !after || id > after).slice(0, limit + 1),
  );
  // Its ids gone from Redis since the thread was read: it moved into history in between.
  const moved = !ids.length && !thread.msgs ? await readThread(rt, spaceId, thread.id) : null;
  if (moved?.history) return messagesInHistory(rt, spaceId, moved.history, after, limit);
  const page = ids.slice(0, limit);
  const stored = await readMessages(rt, spaceId, page);
  return { stored, last: page[page.length - 1] ?? null, more: ids.length > limit };
}

/** threadMessages for a thread in history: the page straight from its document (one blob read, often cached). */
async function messagesInHistory(
  rt: Runtime,
  spaceId: string,
  ref: string,
  after: string | null,
  limit: number,
): Promise<{ stored: StoredMessage[]; last: string | null; more: boolean }> {
  const document = await readDocument(rt, spaceId, ref);
  const from = after ? document.ids.findIndex((id) => id > after) : 0;
  const start = from < 0 ? document.ids.length : from;
  const page = document.ids.slice(start, start + limit);
  const stored = await withBodies(
    rt,
    spaceId,
    page.map((id, i) => storedMessage(id, recordOfPairs(document.messages[start + i]!))),
  );
  return { stored, last: page[page.length - 1] ?? null, more: start + limit < document.ids.length };
}

export interface ThreadFilter {
  inbox_id: string | null;
  label: string | null;
  /** false (the default): threads in the inbox view; true: the archived ones only. */
  archived: boolean;
  /** null: both; true: threads with unread received messages; false: without. */
  unread: boolean | null;
  contact: string | null;
}

/** How many threads one list_threads call may look at before it answers a short page (filters, restricted keys). */
const THREAD_SCAN_CAP = 2000;

/**
 * Threads newest activity first, filtered. `after` is the position of the last thread of the previous
 * page (`<score> <thread id>`); threads at the same activity ms come in descending id order.
 */
export async function listThreads(
  rt: Runtime,
  access: Access,
  filter: ThreadFilter,
  after: string | null,
  limit: number,
): Promise<{ threads: StoredThread[]; next: string | null }> {
  const keys = spaceKeys(access.space.id);
  const own = access.key.inbox_ids;
  let [maxScore, lastId] = after ? after.split(' ') : ['+inf', null];
  const threads: StoredThread[] = [];
  let lastShown: string | null = null;
  let scanned = 0;
  while (scanned < THREAD_SCAN_CAP) {
    const batch = await rt.redis.zrevrangebyscore(keys.threads, maxScore, '-inf', 'WITHSCORES', 'LIMIT', 0, limit + 50);
    const entries: [string, string][] = [];
    for (let i = 0; i < batch.length; i += 2) {
      const [id, score] = [batch[i]!, batch[i + 1]!];
      // Entries at the cursor's own score up to and including its thread were on the previous page.
      if (lastId !== null && score === maxScore && id >= lastId) continue;
      entries.push([id, score]);
    }
    if (!entries.length) return { threads, next: null };
    const rows = await readThreads(
      rt,
      access.space.id,
      entries.map(([id]) => id),
    );
    for (let i = 0; i < entries.length; i++) {
      const [id, score] = entries[i]!;
      const thread = rows[i]!;
      if (!thread || (own && !own.includes(thread.inbox_id)) || !matches(thread, filter)) {
        [maxScore, lastId] = [score, id];
        scanned++;
        continue;
      }
      if (threads.length === limit) return { threads, next: lastShown };
      threads.push(thread);
      lastShown = `${score} ${id}`;
      [maxScore, lastId] = [score, id];
      scanned++;
    }
    if (batch.length < 2 * (limit + 50)) return { threads, next: null };
  }
  // The scan cap was reached: continue from where it stopped, even with a short page.
  return { threads, next: `${maxScore} ${lastId}` };
}

function matches(thread: StoredThread, f: ThreadFilter): boolean {
  if (f.inbox_id && thread.inbox_id !== f.inbox_id) return false;
  if ((thread.archived === '1') !== f.archived) return false;
  if (f.unread !== null && Number(thread.unread || 0) > 0 !== f.unread) return false;
  if (f.contact && thread.contact !== f.contact) return false;
  if (f.label && !(JSON.parse(thread.labels || '[]') as string[]).includes(f.label)) return false;
  return true;
}

export interface Classification {
  /** The complete new list; null leaves the labels as they are. */
  labels: string[] | null;
  archived: boolean | null;
  read: boolean | null;
}

/** classify_thread: labels, archive, read state, written with the journal line that tells who did it. */
export async function classifyThread(
  rt: Runtime,
  access: Access,
  threadId: string,
  change: Classification,
): Promise<StoredThread> {
  const thread = await visibleThread(rt, access, threadId);
  const keys = spaceKeys(access.space.id);
  const changes = [
    change.labels ? (change.labels.length ? `étiquettes ${change.labels.join(', ')}` : 'étiquettes retirées') : null,
    change.archived === null ? null : change.archived ? 'archivé' : 'restauré',
    change.read === null ? null : change.read ? 'lu' : 'non lu',
  ].filter(Boolean);
  const line = prepareLine(
    rt,
    'thread.classified',
    actorOf(access),
    { inbox_id: thread.inbox_id, thread_id: threadId },
    { subject: thread.subject, changes },
  );
  const reply = await outsideHistory(rt, access.space.id, threadId, () =>
    threadLua.classifyThread(
      rt.scripts,
      { thread: keys.thread(threadId), journal: keys.journal, journalIndex: keys.journalIndex, threads: keys.threads },
      {
        changes: JSON.stringify({
          ...(change.labels ? { labels: JSON.stringify(change.labels) } : {}),
          ...(change.archived === null ? {} : { archived: change.archived ? '1' : '0' }),
          ...(change.read === null ? {} : { read: change.read }),
        }),
        ...lineArgs(line),
        threadId,
      },
    ),
  );
  return storedThread(threadId, reply.thread);
}
