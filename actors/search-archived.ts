/**
 * search_threads over the documents moved to search segments (actors/search-segments.ts writes them;
 * docs/architecture.md, "Search"): an inbox's segments are listed in Redis (keys.searchSegments), their
 * files read from the blob store once per process and kept open (SegmentCache). A page of them is shown
 * as the live index's is, newest match first, a thread once where its newest match is; actors/search.ts
 * merges both pages.
 */
import type { Runtime } from '../src/runtime.js';
import { spaceKeys } from '../src/redis/keys.js';
import { blobKey } from '../src/blobs/store.js';
import { Segment, SegmentCache, type SegmentQuery } from '../src/mail/segment-file.js';
import type { StoredThread } from './stored-records.js';

/** A segment as its inbox lists it: "<blob hash, base64url> <first document> <last document> <documents>". */
export interface Shelved {
  inboxId: string;
  entry: string;
  /** The blob's SHA-256, hex. */
  sha256: string;
  documents: number;
}

/** The segments of these inboxes (null: of every inbox of the space). */
export async function shelvesOf(rt: Runtime, spaceId: string, inboxIds: readonly string[] | null): Promise<Shelved[]> {
  const key = spaceKeys(spaceId).searchSegments;
  const lists: [string, string | null][] = inboxIds
    ? (await rt.redis.hmget(key, ...inboxIds)).map((list, i) => [inboxIds[i]!, list])
    : Object.entries(await rt.redis.hgetall(key));
  return lists.flatMap(([inboxId, list]) =>
    (list ? list.split(',') : []).map((entry) => {
      const [hash, , , documents] = entry.split(' ');
      return {
        inboxId,
        entry,
        sha256: Buffer.from(hash!, 'base64url').toString('hex'),
        documents: Number(documents),
      };
    }),
  );
}

let cache: SegmentCache | null = null;

/** The segments opened (give them back with releaseSegments); null when a blob is gone (a merge replaced it: read the list again). */
async function takeSegments(rt: Runtime, spaceId: string, shelves: readonly Shelved[]): Promise<Segment[] | null> {
  cache ??= new SegmentCache(rt.config.searchSegmentCacheBytes);
  const opened = await Promise.allSettled(
    shelves.map((shelved) =>
      cache!.take(shelved.sha256, async () => {
        const bytes = await rt.ports.blobs.get(blobKey(spaceId, shelved.sha256));
        if (!bytes) throw new MissingSegment();
        return bytes;
      }),
    ),
  );
  const segments = opened.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failed = opened.find((result) => result.status === 'rejected');
  if (!failed) return segments;
  releaseSegments(segments);
  if (failed.reason instanceof MissingSegment) return null;
  throw failed.reason;
}

class MissingSegment extends Error {}

export function releaseSegments(segments: readonly Segment[]): void {
  for (const segment of segments) cache!.release(segment);
}

/** The inboxes' segments, opened, with their list entries, the list read again once when a merge removed one meanwhile. */
export async function openShelves(
  rt: Runtime,
  spaceId: string,
  inboxIds: readonly string[] | null,
): Promise<{ shelves: Shelved[]; segments: Segment[] }> {
  for (let attempt = 0; ; attempt++) {
    const shelves = await shelvesOf(rt, spaceId, inboxIds);
    const segments = await takeSegments(rt, spaceId, shelves);
    if (segments) return { shelves, segments };
    if (attempt > 0) throw new Error(`a search segment of ${spaceId} is missing from the blob store`);
  }
}

/** Messages a thread's hit names at most: its newest matching ones. */
const MESSAGE_IDS_MAX = 50;
/** Matches read per segment per query, and threads decided at most before a shorter page with a cursor. */
const BATCH = 64;
const THREADS_READ_MAX = 1_000;

/**
 * The last word's completions over the live index's (`live`) and the segments' words: the first
 * `limit` in byte order, as the live index alone gave them before the documents moved.
 */
export function segmentCompletions(
  segments: readonly Segment[],
  prefix: string,
  live: string[],
  limit: number,
): string[] {
  const all = new Set([...live, ...segments.flatMap((segment) => segment.completions(prefix, limit))]);
  return [...all].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))).slice(0, limit);
}

/**
 * The threads' documents that match `query` in their inboxes' segments, newest first, each once, at most
 * `limit` a thread: one FTS5 query a segment for them all (each asked apart, a page's threads cost a
 * page's worth of queries, each seeking every completion of the last word).
 */
export function archivedMatches(
  ofInbox: (inboxId: string) => Segment[],
  query: SegmentQuery,
  threads: readonly Pick<StoredThread, 'id' | 'inbox_id'>[],
  limit: number,
): Map<string, { doc: number; message: string }[]> {
  const found = new Map(threads.map((thread) => [thread.id, [] as { doc: number; message: string }[]]));
  const byInbox = new Map<string, string[]>();
  for (const { id, inbox_id: inboxId } of threads) byInbox.set(inboxId, [...(byInbox.get(inboxId) ?? []), id]);
  for (const [inboxId, threadIds] of byInbox)
    for (const segment of ofInbox(inboxId))
      for (const { thread, ...match } of segment.threadMatches(query, threadIds)) found.get(thread)!.push(match);
  for (const [id, all] of found) {
    all.sort((a, b) => b.doc - a.doc);
    found.set(id, all.filter((match, i) => i === 0 || match.doc !== all[i - 1]!.doc).slice(0, limit));
  }
  return found;
}

/**
 * The segments' matching documents below `before`, newest first, each once (a merge left it in two for
 * a moment): `first` of each segment at first (a page is usually that many threads), then BATCH more.
 */
function* descending(
  segments: readonly Segment[],
  query: SegmentQuery,
  before: number,
  first: number,
): Generator<{ doc: number; thread: string }> {
  const heads = segments.map((segment) => ({
    segment,
    read: segment.matches(query, before, first),
    at: 0,
    asked: first,
  }));
  let last = Number.MAX_SAFE_INTEGER;
  for (;;) {
    let best: (typeof heads)[number] | null = null;
    for (const head of heads) {
      if (head.at === head.read.length && head.read.length === head.asked) {
        head.read = head.segment.matches(query, head.read[head.asked - 1]!.doc, BATCH);
        head.at = 0;
        head.asked = BATCH;
      }
      if (head.at < head.read.length && (!best || head.read[head.at]!.doc > best.read[best.at]!.doc)) best = head;
    }
    if (!best) return;
    const match = best.read[best.at++]!;
    if (match.doc === last) continue;
    last = match.doc;
    yield match;
  }
}

export interface ArchivedHit {
  thread: StoredThread;
  /** Its newest match's message first: the snippet is cut from its text once the pages are merged (actors/search.ts). */
  message_ids: string[];
  /** The document it is shown at: its newest match. */
  doc: number;
}

/**
 * A page of the threads whose newest match is in the segments, as the live index's pages are made
 * (actors/search.ts searchFrom). `shown` reads threads and answers, per id, the thread when it may be
 * shown from here: it exists, carries the label asked, and no live document of it matches (its live
 * documents are newer than any of its moved ones: the live page shows it).
 */
export async function archivedPage(
  {
    segments,
    ofInbox,
    query,
  }: { segments: readonly Segment[]; ofInbox: (inboxId: string) => Segment[]; query: SegmentQuery },
  request: { before: number | null; limit: number },
  shown: (threadIds: string[]) => Promise<Map<string, StoredThread | null>>,
): Promise<{ hits: ArchivedHit[]; next: number | null }> {
  const hits: ArchivedHit[] = [];
  const decided = new Set<string>();
  const walk = descending(segments, query, request.before ?? Number.MAX_SAFE_INTEGER, request.limit + 1);
  let step = walk.next();
  // Most matches are threads of their own: a page usually needs a page's worth, and one to tell more follow.
  let batchSize = request.limit + 1;
  while (!step.done) {
    if (decided.size >= THREADS_READ_MAX) return { hits, next: step.value.doc + 1 };
    const batch: { doc: number; thread: string }[] = [];
    for (; !step.done && batch.length < batchSize; step = walk.next()) {
      if (decided.has(step.value.thread)) continue;
      decided.add(step.value.thread);
      batch.push(step.value);
    }
    batchSize = BATCH;
    const threads = await shown(batch.map((match) => match.thread));
    const visible = batch.flatMap(({ doc, thread: threadId }) => {
      const thread = threads.get(threadId);
      return thread ? [{ doc, thread }] : [];
    });
    const matches = archivedMatches(
      ofInbox,
      query,
      visible.map(({ thread }) => thread),
      MESSAGE_IDS_MAX,
    );
    for (const { doc, thread } of visible) {
      const own = matches.get(thread.id)!;
      // A newer match: shown on an earlier page.
      if (own[0]?.doc !== doc) continue;
      if (hits.length === request.limit) return { hits, next: hits[hits.length - 1]!.doc };
      hits.push({ thread, doc, message_ids: [...new Set(own.map((match) => match.message))] });
    }
  }
  return { hits, next: null };
}
