/**
 * Search over a space's mail (search_threads; design and limits in docs/architecture.md, "Search").
 * The index lives under the space's hash tag and is written by the scripts that store messages
 * (lua/includes/indexMessage.lua): each message is a document numbered in storage order, and each word,
 * inbox and thread keeps the ascending numbers of its documents, 3 bytes each. A query intersects
 * its words' lists (the last word's completions united), newest document first, and shows each thread
 * once, where its newest matching message is: paging is a document number, with no state kept.
 * Postings are read from their newest end (config.searchTailPostings numbers each) so that a query's
 * cost does not grow with the space's mail: whether a shown thread's older messages match is asked of
 * Redis document by document (lua/search/findDocs-0.lua); only a query whose walk must go further back
 * reads them whole.
 */
import type { Runtime } from '../src/runtime.js';
import { spaceKeys } from '../src/redis/keys.js';
import { execAll } from '../src/redis/pipeline.js';
import { ID_BODY_CHARS } from '../src/ids.js';
import { messageWords, snippet, type Indexed, type QueryTerms } from '../src/mail/words.js';
import { readThreads, textOnly, withBodies, type StoredThread } from './stored-records.js';
import {
  archivedMatches,
  archivedPage,
  openShelves,
  releaseSegments,
  segmentCompletions,
  type ArchivedHit,
  type Shelved,
} from './search-archived.js';
import { SegmentQuery, type Segment } from '../src/mail/segment-file.js';
import * as searchLua from './bindings/search.generated.js';
import { readDocument, recordOfPairs, withFieldsInHistory } from './history-records.js';
import { readLayout, type NamesLayout } from './history-names.js';

const POSTING_BYTES = 3;

/**
 * The keys a store script indexes a message with, and its pending entry after the number the script
 * gives it (`indexed`: "<inbox id> <word> ...", lua/includes/indexMessage.lua).
 */
export function indexing(spaceId: string, inboxId: string, threadId: string, message: Indexed) {
  const keys = spaceKeys(spaceId);
  return {
    keys: {
      searchDocs: keys.searchDocs,
      searchPending: keys.searchPending,
      searchThread: keys.searchThread(threadId),
    },
    indexed: [inboxId, ...messageWords(message)].join(' '),
  };
}

/**
 * Pending entries one search/postPending call files. A store that brings the space's pending list to a
 * multiple of it files them (afterIndexing); a search files whatever waits before it reads.
 */
const PENDING_BATCH = 32;
/** Calls one filing makes at most, each a batch or a batch another caller filed first. */
const FILING_ROUNDS_MAX = 1_000;

/** The document number of a pending entry (its first 3 bytes) and the names of the postings it goes to. */
function pendingEntry(entry: Buffer): { doc: number; names: string[] } {
  const [inboxId, ...words] = entry.subarray(POSTING_BYTES).toString('utf8').split(' ');
  return { doc: new Numbers(entry.subarray(0, POSTING_BYTES)).at(0), names: [`i:${inboxId}`, ...words] };
}

/**
 * Files the space's pending index entries in their inboxes' and words' postings, a batch a call:
 * every entry when `all` (a search is about to read), else full batches only. Whether it filed any.
 */
export async function filePending(rt: Runtime, spaceId: string, all: boolean): Promise<boolean> {
  const keys = spaceKeys(spaceId);
  let filed = false;
  for (let round = 0; round < FILING_ROUNDS_MAX; round++) {
    const entries = (await rt.redis.lrangeBuffer(keys.searchPending, 0, PENDING_BATCH - 1)).map(pendingEntry);
    if (!entries.length || (!all && entries.length < PENDING_BATCH)) return filed;
    const names = [...new Set(entries.flatMap((entry) => entry.names))];
    await searchLua.postPending(
      rt.scripts,
      {
        pending: keys.searchPending,
        words: keys.searchWords,
        once: keys.searchOnce,
        postings: names.map((name) =>
          name.startsWith('i:') ? keys.searchInbox(name.slice(2)) : keys.searchWord(name),
        ),
      },
      { count: entries.length, first: entries[0]!.doc, names },
    );
    filed = true;
  }
  return filed;
}

/**
 * After a store script indexed a message (`pending`: the entries waiting with it, null when none was
 * added): the store that filled a batch files it, off the request's path (a failure leaves the entries
 * to the next batch or search).
 */
export function afterIndexing(rt: Runtime, spaceId: string, pending: number | null | undefined): void {
  if (!pending || pending % PENDING_BATCH !== 0) return;
  filePending(rt, spaceId, false).catch((error: unknown) =>
    rt.log.warn('search entries not filed yet', { space_id: spaceId, error: String(error) }),
  );
}

/** Indexed words the last word of a query completes to, in alphabetical order (a longer prefix narrows them). */
const COMPLETIONS_MAX = 64;
/** Documents one call walks, and threads it reads, before answering a shorter page with a cursor. */
const DOCUMENTS_WALKED_MAX = 200_000;
const THREADS_READ_MAX = 1_000;
/** Matching documents whose threads are read per round trip, after a first batch of one more than the page. */
const BATCH = 64;
/** Message ids given per thread: its newest matching ones. */
const MESSAGE_IDS_MAX = 50;
/**
 * Questions "does this posting hold this document" one page may ask Redis about its threads' older
 * messages before it reads the postings whole instead. A question costs Redis about 13 µs (a binary
 * search in a script); reading a posting of 100,000 numbers whole costs Redis about 25 µs but the front
 * end milliseconds (the walk and the union start again on it): 64 questions hold Redis under a millisecond.
 */
const OLDER_CHECKS_MAX = 64;

/** Document numbers, ascending, as stored: a thread's (the `docs` field of its hash, or past 8 its own posting; always read whole). */
class Numbers {
  readonly length: number;
  constructor(private readonly bytes: Buffer) {
    this.length = Math.floor(bytes.length / POSTING_BYTES);
  }

  at(i: number): number {
    const at = i * POSTING_BYTES;
    return (this.bytes[at]! << 16) | (this.bytes[at + 1]! << 8) | this.bytes[at + 2]!;
  }

  /** How many of its documents come before `doc`. */
  countBelow(doc: number): number {
    let [low, high] = [0, this.length];
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.at(middle) < doc) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  has(doc: number): boolean {
    const i = this.countBelow(doc);
    return i < this.length && this.at(i) === doc;
  }
}

/** A word's or an inbox's document numbers, and the key they are stored under: an older one may be asked of it there. */
class Posting extends Numbers {
  /** `whole`: false when only its newest numbers were read (older ones may exist). */
  constructor(
    bytes: Buffer,
    readonly key: string,
    readonly whole = true,
  ) {
    super(bytes);
  }

  /** Whether what was read tells if it holds `doc`: read whole, or `doc` not below its first number read. */
  knows(doc: number): boolean {
    return this.whole || (this.length > 0 && doc >= this.at(0));
  }
}

/** Steps of one binary search in a posting, counted as such whatever its length (2^20 numbers). */
const SEARCH_STEPS = 20;

/** What one query term matches: one posting, or the union of several (the last word's completions, a key's inboxes). */
class Term {
  readonly size: number;
  readonly whole: boolean;
  private members: Uint8Array | null = null;
  /** What the questions asked so far cost in binary search steps (about SEARCH_STEPS a posting). */
  private asked = 0;

  constructor(readonly postings: Posting[]) {
    this.size = postings.reduce((sum, posting) => sum + posting.length, 0);
    this.whole = postings.every((posting) => posting.whole);
  }

  has(doc: number): boolean {
    if (this.postings.length === 1) return this.postings[0]!.has(doc);
    // A union answers by a binary search in each posting until it has been asked as much as a bitmap
    // of all its documents costs to build, then from that bitmap: built on the first question, its
    // cost grew with the space's mail even for the few questions of a one-word query.
    if (!this.members && (this.asked += this.postings.length * SEARCH_STEPS) < this.size)
      return this.postings.some((posting) => posting.has(doc));
    if (!this.members) {
      const last = Math.max(...this.postings.map((posting) => (posting.length ? posting.at(posting.length - 1) : 0)));
      this.members = new Uint8Array((last >> 3) + 1);
      for (const posting of this.postings)
        for (let i = 0; i < posting.length; i++) this.members[posting.at(i) >> 3]! |= 1 << (posting.at(i) & 7);
    }
    return doc >> 3 < this.members.length && (this.members[doc >> 3]! & (1 << (doc & 7))) !== 0;
  }

  /** Its documents below `before`, newest first, each once. */
  *descending(before: number): Generator<number> {
    const next = this.postings.map((posting) => posting.countBelow(before) - 1);
    for (;;) {
      let doc = -1;
      for (let i = 0; i < next.length; i++) if (next[i]! >= 0) doc = Math.max(doc, this.postings[i]!.at(next[i]!));
      if (doc < 0) return;
      for (let i = 0; i < next.length; i++) if (next[i]! >= 0 && this.postings[i]!.at(next[i]!) === doc) next[i]!--;
      yield doc;
    }
  }
}

export interface SearchRequest {
  terms: QueryTerms;
  /** The inboxes searched; null: all of the space's. */
  inboxIds: string[] | null;
  label: string | null;
  /** Only documents below this number (the cursor); null: from the newest. */
  before: number | null;
  limit: number;
}

export interface SearchHit {
  thread: StoredThread;
  /** The thread's matching messages, newest first (at most MESSAGE_IDS_MAX). */
  message_ids: string[];
  snippet: string;
  /** The document it is shown at: its newest match. */
  doc: number;
}

type Page = { hits: SearchHit[]; next: number | null };

/**
 * A page of matching threads, newest match first; `next` is the next page's `before`, null after the
 * last page. First from the postings' newest numbers only (a common word's posting grows with the
 * space: read whole, its bytes and the union's bitmap made the cost grow with the mail); when the page
 * needs a document older than what was read, again from the whole postings. The documents moved to
 * search segments give a page of their own (actors/search-archived.ts), merged with the live one.
 */
export async function searchThreads(rt: Runtime, spaceId: string, request: SearchRequest): Promise<Page> {
  const { prefix } = request.terms;
  // All read at once: the last word's live completions (again when filing the pending entries changed
  // the index), the segments, the names' layout (their threads' rows are then read with their hashes).
  const [filed, listed, { shelves, segments }, layout] = await Promise.all([
    filePending(rt, spaceId, true),
    liveCompletions(rt, spaceId, prefix),
    openShelves(rt, spaceId, request.inboxIds),
    readLayout(rt, spaceId),
  ]);
  try {
    const liveWords = filed ? await liveCompletions(rt, spaceId, prefix) : listed;
    const archive = segments.length ? archiveOf(request.terms, liveWords, segments, shelves, layout) : null;
    const completions = archive?.completions ?? liveWords;
    const livePage = async () =>
      (await searchFrom(rt, spaceId, request, completions, rt.config.searchTailPostings, archive)) ??
      (await searchFrom(rt, spaceId, request, completions, null, archive))!;
    // No completion: nothing matches, in the segments either.
    if (!archive?.completions.length) return await livePage();
    // Both pages at once: their round trips overlap.
    const [live, archived] = await Promise.all([
      livePage(),
      archivedPage(archive, request, (ids) => shownFromSegments(rt, spaceId, request, ids, archive)),
    ]);
    const merged = mergePages(live, archived, request.limit);
    return { hits: await withSnippets(rt, spaceId, merged.hits, request.terms), next: merged.next };
  } finally {
    releaseSegments(segments);
  }
}

/**
 * The segments a search reads and what it asks of them: the last word's completions are the first
 * COMPLETIONS_MAX words of the live index's and the segments' together, as they were of the live
 * index alone before the move; both sides complete the last word to them.
 */
interface Archive {
  segments: readonly Segment[];
  /** The names' layout as the search read it (rows of threads in history are read under it). */
  layout: NamesLayout;
  /** Those of one inbox: where a thread's documents are. */
  ofInbox: (inboxId: string) => Segment[];
  completions: string[];
  query: SegmentQuery;
}

function archiveOf(
  terms: QueryTerms,
  live: string[],
  segments: readonly Segment[],
  shelves: readonly Shelved[],
  layout: NamesLayout,
): Archive {
  const completions = segmentCompletions(segments, terms.prefix, live, COMPLETIONS_MAX);
  return {
    segments,
    layout,
    ofInbox: (inboxId) => segments.filter((_, i) => shelves[i]!.inboxId === inboxId),
    completions,
    query: new SegmentQuery(terms.words, completions),
  };
}

/** The first COMPLETIONS_MAX words of the live index that begin with `prefix`, in byte order. */
const liveCompletions = (rt: Runtime, spaceId: string, prefix: string): Promise<string[]> =>
  rt.redis.zrangebylex(
    spaceKeys(spaceId).searchWords,
    `[${prefix}`,
    Buffer.concat([Buffer.from(`[${prefix}`), Buffer.from([0xff])]),
    'LIMIT',
    0,
    COMPLETIONS_MAX,
  );

/**
 * The two pages as one: each has decided every document from its `next` up (all of them when null),
 * so the hits from the higher of both are the merged page's, cut to its length.
 */
function mergePages(
  live: Page,
  archived: { hits: ArchivedHit[]; next: number | null },
  limit: number,
): { hits: (SearchHit | ArchivedHit)[]; next: number | null } {
  const floor = Math.max(live.next ?? -1, archived.next ?? -1);
  const hits = [...live.hits, ...archived.hits].filter((hit) => hit.doc >= floor).sort((a, b) => b.doc - a.doc);
  if (hits.length > limit) return { hits: hits.slice(0, limit), next: hits[limit - 1]!.doc };
  return { hits, next: floor >= 0 ? floor : null };
}

/**
 * Which of these threads a page of the segments may show: those that exist, carry the label asked and
 * have no live document that matches (read from the whole postings, once, when one has live documents).
 */
async function shownFromSegments(
  rt: Runtime,
  spaceId: string,
  request: SearchRequest,
  ids: string[],
  archive: Archive,
): Promise<Map<string, StoredThread | null>> {
  const threads = await threadsWithDocs(rt, spaceId, ids, archive.layout);
  let terms: Promise<Term[] | null> | null = null;
  const shown = new Map<string, StoredThread | null>();
  for (const [id, { thread, docs }] of threads) {
    if (!thread || !labelled(thread, request.label)) continue;
    terms ??= docs.length
      ? readTerms(rt, spaceId, request, archive.completions, null).then((read) => read?.terms ?? null)
      : null;
    const live = docs.length ? await terms : null;
    let matched = false;
    for (let i = 0; live && !matched && i < docs.length; i++) matched = live.every((term) => term.has(docs.at(i)));
    shown.set(id, matched ? null : thread);
  }
  return shown;
}

const labelled = (thread: StoredThread, label: string | null): boolean =>
  !label || (JSON.parse(thread.labels || '[]') as string[]).includes(label);

/** Threads and their live document numbers, both read at once (readThreads: rows under `layout` when given). */
async function threadsWithDocs(
  rt: Runtime,
  spaceId: string,
  ids: string[],
  layout?: NamesLayout,
): Promise<Map<string, { thread: StoredThread | null; docs: Numbers }>> {
  const keys = spaceKeys(spaceId);
  const reads = rt.redis.pipeline();
  for (const id of ids) reads.hgetBuffer(keys.thread(id), 'docs').getBuffer(keys.searchThread(id));
  const [threads, replies] = await Promise.all([readThreads(rt, spaceId, ids, layout), execAll<Buffer | null>(reads)]);
  return new Map(
    ids.map((id, i) => [
      id,
      { thread: threads[i]!, docs: new Numbers(replies[2 * i] ?? replies[2 * i + 1] ?? Buffer.alloc(0)) },
    ]),
  );
}

/**
 * The page from each posting's last `tail` numbers (null: whole), the last word completed to
 * `completions`; null when its walk needs a document below what every term holds whole (`floor`),
 * which only the whole postings tell, or when its threads' messages below the floor are too many to
 * ask about one by one.
 */
async function searchFrom(
  rt: Runtime,
  spaceId: string,
  request: SearchRequest,
  completions: string[],
  tail: number | null,
  archive: Archive | null,
): Promise<Page | null> {
  const read = await readTerms(rt, spaceId, request, completions, tail);
  if (!read) return { hits: [], next: null };
  const { terms, floor } = read;
  const [driver, ...others] = terms.sort((a, b) => a.size - b.size);
  const matches = (doc: number): boolean => driver!.has(doc) && others.every((term) => term.has(doc));
  const found: Found[] = [];
  const answer = async (next: number | null): Promise<Page | null> =>
    (await withOlderMatches(rt, terms, found))
      ? { hits: await withMessages(rt, spaceId, found, request.terms, archive), next }
      : null;
  const decided = new Set<string>();
  const documents = driver!.descending(request.before ?? Number.MAX_SAFE_INTEGER);
  let walked = 0;
  /** The last document walked: everything from it up is decided. */
  let position: number | null = null;
  // Most matches are threads of their own: a page usually needs a page's worth, and one to tell more follow.
  let batchSize = request.limit + 1;
  while (walked < DOCUMENTS_WALKED_MAX && decided.size < THREADS_READ_MAX) {
    const batch: number[] = [];
    let step = documents.next();
    for (; !step.done; step = documents.next()) {
      if (step.value < floor) return null;
      walked++;
      position = step.value;
      if (others.every((term) => term.has(step.value))) batch.push(step.value);
      if (batch.length === batchSize || walked === DOCUMENTS_WALKED_MAX) break;
    }
    batchSize = BATCH;
    // The driver's numbers read are walked, but older ones may be left: only the whole postings tell.
    if (step.done && !driver!.whole) return null;
    if (!batch.length && step.done) return answer(null);
    if (!batch.length) break;
    const batchRecords = await records(rt, spaceId, batch);
    // A document moved to a segment has no record: a posting its drop missed may still name it.
    const threadIds = batchRecords.map((record) => (record ? `thr_${record.slice(ID_BODY_CHARS)}` : ''));
    const threads = await threadsWithDocs(rt, spaceId, [...new Set(threadIds.filter((id) => id && !decided.has(id)))]);
    for (const [i, doc] of batch.entries()) {
      const id = threadIds[i]!;
      if (!id || decided.has(id)) continue;
      decided.add(id);
      const { thread, docs } = threads.get(id)!;
      const own: number[] = [];
      /** The thread's numbers below the floor, newest first: whether they match is not known here. */
      const older: number[] = [];
      for (let j = docs.length - 1; j >= 0 && own.length < MESSAGE_IDS_MAX; j--) {
        if (docs.at(j) < floor) older.push(docs.at(j));
        else if (matches(docs.at(j))) own.push(docs.at(j));
      }
      // A newer match means the thread was shown on an earlier page (or is newer than the search).
      if (!thread || own[0] !== doc || !labelled(thread, request.label)) continue;
      if (found.length === request.limit) return answer(found[found.length - 1]!.docs[0]!);
      found.push({ thread, docs: own, older, newest: `msg_${batchRecords[i]!.slice(0, ID_BODY_CHARS)}` });
    }
    if (step.done) return answer(null);
  }
  // The walk's bound was reached: the page may be short; the next one starts where it stopped.
  return answer(position);
}

/**
 * Completes the found threads' matching documents with their older ones (below the floor, where some
 * postings were read only in part), in one round trip: a document the read postings cannot decide is
 * asked of each posting that does not know it (lua/search/findDocs-0.lua). False when that would be
 * more than OLDER_CHECKS_MAX questions: the page is then computed from the whole postings.
 */
async function withOlderMatches(rt: Runtime, terms: Term[], found: Found[]): Promise<boolean> {
  /** Per document asked about, per term: null when the term's read postings hold it, else the postings asked. */
  const asked = new Map<number, (Posting[] | null)[]>();
  const questions = new Map<Posting, number[]>();
  let count = 0;
  for (const doc of found.flatMap((thread) => (thread.docs.length < MESSAGE_IDS_MAX ? thread.older : []))) {
    const unknown = terms.map((term) =>
      term.postings.some((posting) => posting.has(doc)) ? null : term.postings.filter((posting) => !posting.knows(doc)),
    );
    // A term whose postings all know the document and none holds it: the document does not match.
    if (unknown.some((postings) => postings?.length === 0)) continue;
    asked.set(doc, unknown);
    for (const posting of unknown.flatMap((postings) => postings ?? [])) {
      if (++count > OLDER_CHECKS_MAX) return false;
      const docs = questions.get(posting);
      if (docs) docs.push(doc);
      else questions.set(posting, [doc]);
    }
  }
  const postings = [...questions.keys()];
  const { held } = postings.length
    ? await searchLua.findDocs(
        rt.scripts,
        { postings: postings.map((posting) => posting.key) },
        { documents: postings.map((posting) => questions.get(posting)!.join(' ')) },
      )
    : { held: [] };
  const holds = new Map(
    postings.map((posting, i) => [posting, new Set(questions.get(posting)!.filter((_, j) => held[i]![j] === '1'))]),
  );
  const matches = (doc: number): boolean =>
    asked.get(doc)?.every((postings) => !postings || postings.some((posting) => holds.get(posting)!.has(doc))) ?? false;
  for (const thread of found) {
    for (const doc of thread.older) if (thread.docs.length < MESSAGE_IDS_MAX && matches(doc)) thread.docs.push(doc);
  }
  return true;
}

/**
 * The query's terms as postings (the last word's: its `completions`'), read in one round trip, each
 * posting's last `tail` numbers only (null: whole), and `floor`: every term holds all its documents
 * from that number up. Null when a term matches nothing (nor can anything).
 */
async function readTerms(
  rt: Runtime,
  spaceId: string,
  request: SearchRequest,
  completions: string[],
  tail: number | null,
): Promise<{ terms: Term[]; floor: number } | null> {
  if (completions.length === 0) return null;
  const keys = spaceKeys(spaceId);
  const { words } = request.terms;
  const readPosting = (pipeline: ReturnType<Runtime['redis']['pipeline']>, key: string) =>
    tail === null ? pipeline.getBuffer(key) : pipeline.getrangeBuffer(key, -tail * POSTING_BYTES, -1);
  let floor = 0;
  const posting = (bytes: Buffer | null, key: string): Posting => {
    // A posting read up to the tail's length may hold older numbers: below its first one, nothing is known.
    const whole = tail === null || (bytes?.length ?? 0) < tail * POSTING_BYTES;
    const read = new Posting(bytes ?? Buffer.alloc(0), key, whole);
    if (!whole) floor = Math.max(floor, read.at(0));
    return read;
  };
  // A word's posting, or the only number of a word of one document (lua/includes/indexMessage.lua): both asked, one answers.
  const readWord = (pipeline: ReturnType<Runtime['redis']['pipeline']>, word: string) => {
    readPosting(pipeline, keys.searchWord(word));
    pipeline.hgetBuffer(keys.searchOnce, word);
  };
  const wordPosting = (replies: unknown[], at: number, word: string): Posting =>
    posting(
      ((replies[at] as Buffer | null)?.length ? replies[at] : replies[at + 1]) as Buffer | null,
      keys.searchWord(word),
    );
  const inboxKeys = (request.inboxIds ?? []).map(keys.searchInbox);
  const reads = rt.redis.pipeline();
  for (const word of words) readWord(reads, word);
  for (const key of inboxKeys) readPosting(reads, key);
  for (const word of completions) readWord(reads, word);
  const postings = await execAll<unknown>(reads);
  const exact = words.map((word, i) => new Term([wordPosting(postings, 2 * i, word)]));
  const inboxes = request.inboxIds
    ? [new Term(inboxKeys.map((key, i) => posting(postings[2 * words.length + i] as Buffer | null, key)))]
    : [];
  const completedAt = 2 * words.length + inboxKeys.length;
  const completed = new Term(completions.map((word, i) => wordPosting(postings, completedAt + 2 * i, word)));
  if ([...exact, ...inboxes].some((term) => term.size === 0)) return null;
  return { terms: [...exact, completed, ...inboxes], floor };
}

/** The documents' records (`<message id body><thread id body>`; '' for one moved to a segment), in one round trip. */
async function records(rt: Runtime, spaceId: string, docs: number[]): Promise<string[]> {
  if (!docs.length) return [];
  return (await searchLua.readDocs(rt.scripts, { docs: spaceKeys(spaceId).searchDocs }, { documents: docs })).records;
}

/**
 * A thread of the page: its matching documents, newest first, its documents below the floor (newest
 * first: whether they match is asked before the page is answered), and the newest match's message id.
 */
interface Found {
  thread: StoredThread;
  docs: number[];
  older: number[];
  newest: string;
}

/**
 * The hits of the page, in one round trip: the older matches' message ids, and the newest one's text for
 * the snippet (read back from the blob store when over 2 KB).
 */
async function withMessages(
  rt: Runtime,
  spaceId: string,
  found: Found[],
  terms: QueryTerms,
  archive: Archive | null,
): Promise<SearchHit[]> {
  if (!found.length) return [];
  const [texts, older] = await Promise.all([
    messageTexts(
      rt,
      spaceId,
      found.map(({ newest, thread }) => ({ id: newest, thread })),
    ),
    records(
      rt,
      spaceId,
      found.flatMap(({ docs }) => docs.slice(1)),
    ),
  ]);
  // Its moved messages are older than its live ones (actors/search-segments.ts moves a thread's all).
  const archived = archive
    ? archivedMatches(
        archive.ofInbox,
        archive.query,
        found.filter(({ docs }) => docs.length < MESSAGE_IDS_MAX).map(({ thread }) => thread),
        MESSAGE_IDS_MAX,
      )
    : new Map<string, { doc: number; message: string }[]>();
  let at = 0;
  return found.map(({ thread, newest, docs }, index) => {
    const text = texts[index]!;
    const ids = older.slice(at, (at += docs.length - 1)).map((record) => `msg_${record.slice(0, ID_BODY_CHARS)}`);
    const moved = (archived.get(thread.id) ?? [])
      .slice(0, MESSAGE_IDS_MAX - docs.length)
      .filter((match) => !docs.includes(match.doc));
    return {
      thread,
      doc: docs[0]!,
      // A corrected draft is a document per version: one id for them all.
      message_ids: [...new Set([newest, ...ids, ...moved.map((match) => match.message)])],
      snippet: snippet(text || thread.subject, terms),
    };
  });
}

/** The segments' hits of a merged page given their snippets, cut from their newest match's text as a live hit's is. */
async function withSnippets(
  rt: Runtime,
  spaceId: string,
  hits: (SearchHit | ArchivedHit)[],
  terms: QueryTerms,
): Promise<SearchHit[]> {
  const archived = hits.filter((hit) => !('snippet' in hit));
  const texts = new Map(
    (
      await messageTexts(
        rt,
        spaceId,
        archived.map((hit) => ({ id: hit.message_ids[0]!, thread: hit.thread })),
      )
    ).map((text, i) => [archived[i]!, text]),
  );
  return hits.map((hit) =>
    'snippet' in hit ? hit : { ...hit, snippet: snippet(texts.get(hit)! || hit.thread.subject, terms) },
  );
}

/**
 * The texts of messages of these threads (read back from the blob store when over 2 KB). A thread in
 * history as the page read it has them in its document, read by the reference its row gave: no round
 * trip to find it. Any other's are read in Redis, in one round trip, or in its document when it moved
 * into history since.
 */
async function messageTexts(
  rt: Runtime,
  spaceId: string,
  messages: { id: string; thread: StoredThread }[],
): Promise<string[]> {
  const keys = spaceKeys(spaceId);
  const rows: (string | null)[][] = await Promise.all(
    messages.map(async ({ id, thread }) => {
      if (!thread.history) return [null, null];
      const document = await readDocument(rt, spaceId, thread.history);
      const at = document.ids.indexOf(id);
      if (at < 0) return [null, null];
      const record = recordOfPairs(document.messages[at]!);
      return [record.text ?? '', record.body_blobs ?? ''];
    }),
  );
  const unread = messages.filter((_, i) => rows[i]![0] === null);
  const reads = rt.redis.pipeline();
  for (const { id } of unread) reads.hmget(keys.message(id), 'text', 'body_blobs');
  const read = unread.length
    ? await withFieldsInHistory(
        rt,
        spaceId,
        unread.map(({ id }) => id),
        ['text', 'body_blobs'],
        await execAll(reads),
      )
    : [];
  let next = 0;
  const fields = rows.map((row) => (row[0] === null ? read[next++]! : row));
  const bodies = await withBodies(
    rt,
    spaceId,
    fields.map(([text, blobs]) => textOnly(text ?? '', blobs ?? '')),
  );
  return bodies.map((body) => body.text);
}
