/**
 * The names of the messages whose thread is in history (docs/architecture.md, "History"): what finds
 * the thread of such a message again, by its id (get_message, a bounce's return path) or, received,
 * by its Message-ID (a reply months later). Each name keeps 48 bits of its SHA-256 (6 bytes) and the
 * thread's slot, a number, in one of the space's name buckets (keys.historyNames): small hashes that
 * Redis keeps as listpacks, some 14 bytes a name where a field of one large hash costs about 100. A
 * slot is 20 characters of keys.historyThreads, the thread's id body, appended at each move: the
 * thread's 8 or so names share it. The buckets hold the rows of the threads in history too (rowPlace). The
 * buckets double once they hold NAMES_PER_BUCKET names on average, one bucket split a call
 * (lua/history/splitNames-3.lua), readers looking in the new place for the buckets already split.
 * A leaf of the actors: the history's records and the move both read it.
 */
import { hash } from 'node:crypto';
import { ID_BODY_CHARS, ID_PREFIXES, idBody } from '../src/ids.js';
import { spaceKeys } from '../src/redis/keys.js';
import { execAll } from '../src/redis/pipeline.js';
import type { Runtime } from '../src/runtime.js';
import * as historyLua from './bindings/history.generated.js';

/** Names a bucket holds on average before the buckets double: under Redis's 128 entries of a listpack hash, with room for chance. */
const NAMES_PER_BUCKET = 64;

/** How the names are spread: `buckets` (a power of two), and while they double, the first bucket not split yet. */
export interface NamesLayout {
  buckets: number;
  split: number | null;
  /** Names held, all buckets together. */
  entries: number;
}

/** The layout as the scripts compare it (lua/includes/namesLayout.lua). */
export const layoutText = (layout: NamesLayout): string => `${layout.buckets} ${layout.split ?? ''}`;

/** Queues the read of a space's layout (layoutOf reads its answer): with other reads, in their round trip. */
export const queueLayout = (pipeline: ReturnType<Runtime['redis']['pipeline']>, spaceId: string) =>
  pipeline.hmget(spaceKeys(spaceId).history, 'buckets', 'split', 'entries');

export const layoutOf = ([buckets, split, entries]: (string | null)[]): NamesLayout => ({
  buckets: Number(buckets ?? 1),
  split: split === null ? null : Number(split),
  entries: Number(entries ?? 0),
});

export async function readLayout(rt: Runtime, spaceId: string): Promise<NamesLayout> {
  const [layout] = await execAll<(string | null)[]>(queueLayout(rt.redis.pipeline(), spaceId));
  return layoutOf(layout!);
}

/** The name of a message by its id. */
export const messageName = (messageId: string): string => `m ${messageId}`;
/** The name of a received message by its Message-ID, as the space's messageIds hash files it (messageIdEntry). */
export const receivedName = (entry: string): string => `h ${entry}`;
/**
 * The name of a thread's history document by its SHA-256 (base64url, as the thread's `history` field
 * holds it): what tells the blob sweep the document is kept (the space's blob set does not hold it).
 */
export const documentName = (ref: string): string => `d ${ref}`;

/** Where a name is kept under a layout: its bucket and its field there, in hex (the scripts' nameField stores its bytes). */
export function namePlace(name: string, layout: NamesLayout): { bucket: number; field: string } {
  const field = hash('sha256', name, 'hex').slice(0, 12);
  const spread = parseInt(field.slice(0, 6), 16);
  const bucket = spread % layout.buckets;
  return {
    bucket: layout.split !== null && bucket < layout.split ? spread % (2 * layout.buckets) : bucket,
    field,
  };
}

/**
 * Where a thread's row is kept while the thread is in history: in the name buckets too (one listpack
 * entry, where a hash of its own costs its key, its fields' names and a dictionary entry), placed and
 * split as the name `t <thread id>` (the field's first 3 bytes are those of its SHA-256) and told apart
 * by the id's body after them: never a name's 6 bytes, never another thread's. Hex, as the scripts take it.
 */
export function rowPlace(threadId: string, layout: NamesLayout): { bucket: number; field: string } {
  const { bucket, field } = namePlace(`t ${threadId}`, layout);
  return { bucket, field: field.slice(0, 6) + Buffer.from(idBody(threadId)).toString('hex') };
}

/** Queues the read of a thread's row in history under this layout (null when it is not there). */
export function queueRow(
  pipeline: ReturnType<Runtime['redis']['pipeline']>,
  spaceId: string,
  threadId: string,
  layout: NamesLayout,
) {
  const { bucket, field } = rowPlace(threadId, layout);
  return pipeline.hget(spaceKeys(spaceId).historyNames(bucket), Buffer.from(field, 'hex'));
}

/** The history document a packed row names: its first value (stored-records.ts HISTORY_ROW_FIELDS begins with `history`). */
export const rowDocument = (packed: string): string => (JSON.parse(packed) as string[])[0]!;

/**
 * The rows of these threads in history, packed as lua/history/moveThread-5.lua wrote them (null: not in
 * history), under the layout the caller read (`read`) or read here. Read again under the new layout
 * when the buckets split meanwhile.
 */
export async function historyRows(
  rt: Runtime,
  spaceId: string,
  threadIds: readonly string[],
  read?: NamesLayout,
): Promise<(string | null)[]> {
  let layout = read ?? (await readLayout(rt, spaceId));
  for (;;) {
    if (!layout.entries) return threadIds.map(() => null);
    const reads = rt.redis.pipeline();
    for (const threadId of threadIds) queueRow(reads, spaceId, threadId, layout);
    const rows = await execAll<string | null>(reads);
    if (rows.every((row) => row !== null)) return rows;
    const now = await readLayout(rt, spaceId);
    if (layoutText(now) === layoutText(layout)) return rows;
    layout = now;
  }
}

/**
 * The threads of these names (null: not in history), in two round trips once the layout is read (the
 * names' slots, then their threads); none without history.
 */
export async function threadsOfNames(rt: Runtime, spaceId: string, names: string[]): Promise<(string | null)[]> {
  const layout = await readLayout(rt, spaceId);
  if (!layout.entries) return names.map(() => null);
  const keys = spaceKeys(spaceId);
  const slotReads = rt.redis.pipeline();
  for (const name of names) {
    const { bucket, field } = namePlace(name, layout);
    slotReads.hget(keys.historyNames(bucket), Buffer.from(field, 'hex'));
  }
  const slots = await execAll<string | null>(slotReads);
  const bodyReads = rt.redis.pipeline();
  for (const slot of slots)
    if (slot !== null)
      bodyReads.getrange(keys.historyThreads, Number(slot) * ID_BODY_CHARS, (Number(slot) + 1) * ID_BODY_CHARS - 1);
  const bodies = (await execAll<string>(bodyReads)).values();
  return slots.map((slot) => (slot === null ? null : `${ID_PREFIXES.thread}_${bodies.next().value}`));
}

/**
 * Doubles the buckets when `adding` more names would bring them past NAMES_PER_BUCKET on average (or
 * finishes a doubling a worker left), one split a bucket; answers the layout names are then added under.
 */
export async function roomForNames(rt: Runtime, spaceId: string, adding: number): Promise<NamesLayout> {
  let layout = await readLayout(rt, spaceId);
  const keys = spaceKeys(spaceId);
  while (layout.split !== null || layout.entries + adding > NAMES_PER_BUCKET * layout.buckets) {
    const from = layout.split ?? 0;
    await historyLua.splitNames(
      rt.scripts,
      { history: keys.history, from: keys.historyNames(from), to: keys.historyNames(from + layout.buckets) },
      { buckets: layout.buckets, bucket: from },
    );
    layout = await readLayout(rt, spaceId);
  }
  return layout;
}
