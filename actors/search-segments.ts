/**
 * Moves archived threads out of the live search index into search segments (docs/architecture.md,
 * "Search"): per inbox, an immutable SQLite FTS5 file in the blob store (src/mail/segment-file.ts),
 * listed in Redis with its document range (keys.searchSegments). Redis then keeps nothing of a moved
 * message but its share of a list entry; actors/search-archived.ts reads the segments back.
 * The order makes a crash harmless: the file is written (an orphan the sweep removes, should the rest
 * not follow), listed (a search then finds its documents there and live, and shows each once), then
 * dropped from the live index; a second call drops what a first one listed.
 */
import type { Runtime } from '../src/runtime.js';
import { spaceKeys } from '../src/redis/keys.js';
import { execAll } from '../src/redis/pipeline.js';
import { blobSetMember } from '../src/blobs/store.js';
import { buildSegment, type SegmentDoc } from '../src/mail/segment-file.js';
import { messageWords, type Indexed } from '../src/mail/words.js';
import { copiesOf } from '../src/sending/recipients.js';
import { ID_BODY_CHARS } from '../src/ids.js';
import { filePending } from './search.js';
import { readMessages, type StoredMessage } from './stored-records.js';
import { openShelves, releaseSegments, type Shelved } from './search-archived.js';
import * as searchLua from './bindings/search.generated.js';

/** An inbox's segments beyond which the smaller ones are merged into one, down to half: a query reads each. */
const SEGMENTS_MAX = 4;
/**
 * Documents past which a segment is merged no more (about 350 MB, built and read whole in memory, in
 * SQLite's WebAssembly memory of 4 GB at most): an inbox keeps one segment of each 250,000 archived
 * messages, and up to SEGMENTS_MAX smaller ones.
 */
const SEGMENT_DOCS_MAX = 250_000;
/** Postings one drop call rewrites at most: a script holds Redis while it runs. */
const TARGETS_PER_DROP = 512;
/** Records read at a time from the records' front when looking for moved ones to cut. */
const CUT_READ = 4096;

/** What a message was indexed by, from its record (actors/message.ts, actors/inbound.ts, actors/draft.ts). */
const indexedOf = (message: StoredMessage): Indexed =>
  message.direction === 'inbound'
    ? { subject: message.subject, address: message.from, name: message.from_name, text: message.text }
    : {
        subject: message.subject,
        address: [message.to, ...[...copiesOf(message.cc), ...copiesOf(message.bcc)].map((copy) => copy.address)].join(
          ' ',
        ),
        name: message.to_name,
        text: message.text,
      };

/**
 * Moves the threads' documents from the live index to one new segment per inbox they are in, then
 * merges an inbox's segments when they are more than SEGMENTS_MAX. The threads' messages must still be
 * in Redis. Calling it again with the same threads finishes what a crash left, or does nothing.
 * `steps.listed` runs once the segments are listed, before the live index drops them (tests stop there).
 * The history mover calls it before it moves threads (docs/architecture.md, "History").
 */
export async function moveToSegments(
  rt: Runtime,
  spaceId: string,
  threadIds: readonly string[],
  steps: { listed?: () => Promise<void> } = {},
): Promise<void> {
  await filePending(rt, spaceId, true);
  const keys = spaceKeys(spaceId);
  const reads = rt.redis.pipeline();
  for (const id of threadIds) reads.hgetBuffer(keys.thread(id), 'docs').getBuffer(keys.searchThread(id));
  const held = await execAll<Buffer | null>(reads);
  const threads = new Map(threadIds.map((id, i) => [id, numbers(held[2 * i] ?? held[2 * i + 1] ?? Buffer.alloc(0))]));
  const docs = [...threads.values()].flat();
  if (!docs.length) return;
  const { records } = await searchLua.readDocs(rt.scripts, { docs: keys.searchDocs }, { documents: docs });
  const ids = records.map((record) => (record ? `msg_${record.slice(0, ID_BODY_CHARS)}` : ''));
  const messages = new Map((await readMessages(rt, spaceId, ids.filter(Boolean))).map((m) => [m.id, m]));
  const moved: (SegmentDoc & { inboxId: string })[] = [];
  docs.forEach((doc, i) => {
    const message = messages.get(ids[i]!);
    if (message)
      moved.push({
        doc,
        inboxId: message.inbox_id,
        message: message.id,
        thread: message.thread_id,
        words: messageWords(indexedOf(message)).join(' '),
      });
  });
  const inboxIds = [...new Set(moved.map((d) => d.inboxId))];
  await shelve(rt, spaceId, moved, inboxIds);
  await steps.listed?.();
  await drop(rt, spaceId, threads, moved);
  await cutFront(rt, spaceId);
  for (const inboxId of inboxIds) await mergeSegments(rt, spaceId, inboxId);
}

const numbers = (bytes: Buffer): number[] =>
  Array.from({ length: Math.floor(bytes.length / 3) }, (_, i) => bytes.readUIntBE(i * 3, 3));

/** Writes and lists a segment per inbox of the documents no listed segment holds yet. */
async function shelve(
  rt: Runtime,
  spaceId: string,
  moved: (SegmentDoc & { inboxId: string })[],
  inboxIds: string[],
): Promise<void> {
  const { segments } = await openShelves(rt, spaceId, inboxIds);
  try {
    const listed = new Set<number>();
    for (const segment of segments)
      segment.holds(moved.map((d) => d.doc)).forEach((held, i) => held && listed.add(moved[i]!.doc));
    for (const inboxId of inboxIds) {
      const fresh = moved.filter((d) => d.inboxId === inboxId && !listed.has(d.doc));
      if (fresh.length) await writeSegment(rt, spaceId, inboxId, fresh, []);
    }
  } finally {
    releaseSegments(segments);
  }
}

/**
 * Writes a segment of these documents to the blob store, then lists it in place of `replaced`. When
 * another merge replaced one of them first, the file is left unlisted: the sweep removes it.
 */
async function writeSegment(
  rt: Runtime,
  spaceId: string,
  inboxId: string,
  docs: readonly SegmentDoc[],
  replaced: readonly Shelved[],
): Promise<void> {
  const blob = await rt.ports.blobs.put(spaceId, await buildSegment(docs));
  const range = new Set(docs.map((d) => d.doc));
  let [first, last] = [Infinity, -Infinity];
  for (const doc of range) [first, last] = [Math.min(first, doc), Math.max(last, doc)];
  const entry = `${blobSetMember(blob.sha256)} ${first} ${last} ${range.size}`;
  const keys = spaceKeys(spaceId);
  await searchLua.shelveSegment(
    rt.scripts,
    { segments: keys.searchSegments, blobs: keys.blobs },
    { inbox: inboxId, entry, replaced: replaced.map((shelved) => shelved.entry) },
  );
}

/**
 * Drops the documents from the live index: the postings of their inboxes and words, each told which of
 * them it holds, in calls of TARGETS_PER_DROP; the threads' numbers and the records' marks in the last.
 */
async function drop(
  rt: Runtime,
  spaceId: string,
  threads: Map<string, number[]>,
  moved: (SegmentDoc & { inboxId: string })[],
): Promise<void> {
  const keys = spaceKeys(spaceId);
  const held = new Map<string, number[]>();
  const hold = (name: string, doc: number) => {
    const list = held.get(name);
    if (list) list.push(doc);
    else held.set(name, [doc]);
  };
  for (const d of [...moved].sort((a, b) => a.doc - b.doc)) {
    hold(`i:${d.inboxId}`, d.doc);
    for (const word of d.words ? d.words.split(' ') : []) hold(word, d.doc);
  }
  const postings = [...held].map(([name, list]) => ({
    key: name.startsWith('i:') ? keys.searchInbox(name.slice(2)) : keys.searchWord(name),
    entry: [name, ...list].join(' '),
  }));
  // A thread's numbers are ascending as stored.
  const ofThreads = [...threads].flatMap(([id, list]) => [
    { key: keys.thread(id), entry: [`h:${id}`, ...list].join(' ') },
    { key: keys.searchThread(id), entry: [`t:${id}`, ...list].join(' ') },
  ]);
  for (let at = 0; ; at += TARGETS_PER_DROP) {
    const last = at + TARGETS_PER_DROP >= postings.length;
    const targets = [...postings.slice(at, at + TARGETS_PER_DROP), ...(last ? ofThreads : [])];
    await searchLua.dropDocs(
      rt.scripts,
      { docs: keys.searchDocs, words: keys.searchWords, once: keys.searchOnce, targets: targets.map((t) => t.key) },
      {
        documents: last ? [...threads.values()].flat().join(' ') : '',
        mark: last ? 1 : 0,
        entries: targets.map((t) => t.entry),
      },
    );
    if (last) return;
  }
}

/**
 * Cuts the records of moved documents from the front of the index's records once they are an eighth
 * of them (or all): each cut rewrites the string, so it waits until it removes a good share of it.
 */
async function cutFront(rt: Runtime, spaceId: string): Promise<void> {
  const docsKey = spaceKeys(spaceId).searchDocs;
  const [head, length] = await execAll<string | number>(rt.redis.pipeline().getrange(docsKey, 0, 39).strlen(docsKey));
  const records = (length as number) / 40;
  const cut = (head as string).startsWith('#') ? Number((head as string).slice(1)) : 0;
  let at = (head as string).startsWith('#') ? 1 : 0;
  const start = at;
  for (;;) {
    const read = await rt.redis.getrange(docsKey, at * 40, (at + CUT_READ) * 40 - 1);
    let i = 0;
    while (i * 40 < read.length && read[i * 40] === '-') i++;
    at += i;
    if (i < CUT_READ) break;
  }
  const marked = at - start;
  if (marked === 0 || (marked * 8 < records && at < records)) return;
  await searchLua.cutDocs(rt.scripts, { docs: docsKey }, { cut, upTo: cut + at - 1 });
}

/**
 * Merges the smaller of an inbox's segments (under SEGMENT_DOCS_MAX documents) into one when they are
 * more than SEGMENTS_MAX, down to half of them.
 */
async function mergeSegments(rt: Runtime, spaceId: string, inboxId: string): Promise<void> {
  const { shelves, segments } = await openShelves(rt, spaceId, [inboxId]);
  try {
    const small = shelves
      .map((shelved, i) => ({ shelved, segment: segments[i]! }))
      .filter(({ shelved }) => shelved.documents < SEGMENT_DOCS_MAX);
    if (small.length <= SEGMENTS_MAX) return;
    const smaller = small
      .sort((a, b) => a.shelved.documents - b.shelved.documents)
      .slice(0, small.length - SEGMENTS_MAX / 2 + 1);
    await writeSegment(
      rt,
      spaceId,
      inboxId,
      smaller.flatMap(({ segment }) => segment.docs()),
      smaller.map(({ shelved }) => shelved),
    );
  } finally {
    releaseSegments(segments);
  }
}
