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
import { snippet, type QueryTerms } from '../src/mail/words.js';
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

/** A thread's documents that match `query` in the segments, newest first, each once, at most `limit`. */
export function archivedMatches(
  segments: readonly Segment[],
  query: SegmentQuery,
  threadId: string,
  limit: number,
): { doc: number; message: string; segment: Segment }[] {
  const all = segments.flatMap((segment) =>
    segment.threadMatches(query, threadId, limit).map((match) => ({ ...match, segment })),
  );
  all.sort((a, b) => b.doc - a.doc);
  return all.filter((match, i) => i === 0 || match.doc !== all[i - 1]!.doc).slice(0, limit);
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
  message_ids: string[];
  snippet: string;
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
  request: { terms: QueryTerms; before: number | null; limit: number },
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
    for (const { doc, thread: threadId } of batch) {
      const thread = threads.get(threadId);
      if (!thread) continue;
      const matches = archivedMatches(ofInbox(thread.inbox_id), query, threadId, MESSAGE_IDS_MAX);
      // A newer match: shown on an earlier page.
      if (matches[0]?.doc !== doc) continue;
      if (hits.length === request.limit) return { hits, next: hits[hits.length - 1]!.doc };
      const text = matches[0].segment.text(doc);
      hits.push({
        thread,
        doc,
        message_ids: [...new Set(matches.map((match) => match.message))],
        snippet: snippet(text || thread.subject, request.terms),
      });
    }
  }
  return { hits, next: null };
}
