/**
 * A search segment's file (docs/architecture.md, "Search"): an SQLite database with an FTS5 index,
 * written once, read-only after, kept in the blob store (actors/search-segments.ts). SQLite runs here
 * as WebAssembly (@sqlite.org/sqlite-wasm): no native addon to build per Node version, and a database
 * is made in memory and exported as bytes, or opened from bytes, without a file.
 * A document keeps its number in the space's index, its message and thread ids, and in FTS5 only (no
 * copy of them kept) its words as the live index has them (src/mail/words.ts: folded, stop words left
 * out) and its thread's token; table `terms` lists the words once each, for completions. The words
 * are folded before FTS5 sees them, so both indexes match the same words; FTS5's own folding
 * (remove_diacritics 2) then changes nothing of them. A snippet is cut from the message itself, as
 * for a live match (actors/search.ts).
 */
import sqlite3Init, { type Database, type PreparedStatement, type Sqlite3Static } from '@sqlite.org/sqlite-wasm';
import { idBody } from '../ids.js';

export interface SegmentDoc {
  doc: number;
  message: string;
  thread: string;
  /** The document's words, space-separated (messageWords). */
  words: string;
}

/**
 * The file's layout, its `user_version`. The first (0) also kept each document's words in `docs` and
 * the head of its text: such a file is rebuilt in this layout when opened (openSegment).
 */
const LAYOUT = 1;

/**
 * `found`: contentless (the words are in the index only), no column sizes, no positions: a query asks for
 * single words and their completions. `_` is a letter of a token for the threads' tokens alone: a word
 * never has it. `terms`: what an fts5vocab table would list, without making one at each opening, nor
 * counting each word's documents as it lists them.
 */
const SCHEMA = `
  PRAGMA user_version = ${LAYOUT};
  CREATE TABLE docs(doc INTEGER PRIMARY KEY, message TEXT NOT NULL, thread TEXT NOT NULL);
  CREATE TABLE terms(term TEXT PRIMARY KEY) WITHOUT ROWID;
  CREATE VIRTUAL TABLE found USING fts5(words, content='', columnsize=0, detail=none, tokenize="unicode61 remove_diacritics 2 tokenchars '_'");`;

/**
 * The token FTS5 keeps a thread's documents under: `_` and the id's body (lowercase, as FTS5 folds it).
 * No word begins with `_`, so none is a completion of a query's last word.
 */
const threadToken = (threadId: string): string => `_${idBody(threadId)}`;

let engine: Promise<Sqlite3Static> | null = null;
const sqlite = (): Promise<Sqlite3Static> => (engine ??= sqlite3Init());

/** A segment's bytes from its documents, in any order (each number once: the first given is kept). */
export async function buildSegment(docs: readonly SegmentDoc[]): Promise<Uint8Array> {
  const sqlite3 = await sqlite();
  const db = new sqlite3.oo1.DB(':memory:');
  try {
    db.exec(SCHEMA);
    const insertDoc = db.prepare('INSERT INTO docs VALUES (?, ?, ?)');
    const insertWords = db.prepare('INSERT INTO found(rowid, words) VALUES (?, ?)');
    const written = new Set<number>();
    db.transaction(() => {
      for (const d of [...docs].sort((a, b) => a.doc - b.doc)) {
        if (written.has(d.doc)) continue;
        written.add(d.doc);
        insertDoc.bind([d.doc, d.message, d.thread]).stepReset();
        insertWords.bind([d.doc, `${d.words} ${threadToken(d.thread)}`]).stepReset();
      }
    });
    insertDoc.finalize();
    insertWords.finalize();
    // One b-tree per index, no free pages: the smallest file, and the same bytes for the same documents.
    db.exec(`INSERT INTO found(found) VALUES ('optimize');
      CREATE VIRTUAL TABLE temp.vocabulary USING fts5vocab(main, found, 'row');
      INSERT INTO terms SELECT term FROM vocabulary WHERE term NOT GLOB '_*';
      VACUUM;`);
    return sqlite3.capi.sqlite3_js_db_export(db);
  } finally {
    db.close();
  }
}

/**
 * What a search asks of the segments: every word, and one of the last word's completions
 * (src/mail/words.ts queryTerms; the caller chose them as the live index does; one at least).
 */
export class SegmentQuery {
  /** FTS5's query. Words are letters and digits: a quote never needs escaping. */
  readonly fts: string;

  constructor(words: readonly string[], completions: readonly string[]) {
    this.fts = [...words.map((word) => `"${word}"`), `(${completions.map((word) => `"${word}"`).join(' OR ')})`].join(
      ' AND ',
    );
  }

  /** The query over these threads' documents. */
  ofThreads(threadIds: readonly string[]): string {
    return `${this.fts} AND (${threadIds.map((id) => `"${threadToken(id)}"`).join(' OR ')})`;
  }
}

export interface SegmentMatch {
  doc: number;
  thread: string;
  message: string;
}

/** An opened segment, read-only. */
export class Segment {
  /**
   * Whether its fts5vocab table of instances is made (a merge reads it), in the connection's own
   * temporary schema: the file stays read-only.
   */
  private instances = false;
  /** Statements prepared once: preparing costs a search about what running does. */
  private readonly statements = new Map<string, PreparedStatement>();

  /** Reads under way that await between their queries: the cache closes it only when none is. */
  users = 0;
  closed = false;

  constructor(
    private readonly db: Database,
    readonly bytes: number,
  ) {}

  /** The rows of a statement (prepared once), each an array of its columns. */
  private rows(sql: string, values: (string | number)[]): unknown[][] {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.db.prepare(sql)));
    const rows: unknown[][] = [];
    try {
      statement.bind(values);
      while (statement.step()) rows.push(statement.get([]));
    } finally {
      statement.reset(true);
    }
    return rows;
  }

  /**
   * Documents of an FTS5 query below `before`, newest first, at most `limit` (-1: all). One statement for
   * every query: preparing it is the larger part of a first query after the file is opened.
   */
  private matching(fts: string, before: number, limit: number): SegmentMatch[] {
    return this.rows(
      'SELECT doc, thread, message FROM docs WHERE doc IN (SELECT rowid FROM found WHERE found MATCH ? AND rowid < ? ORDER BY rowid DESC LIMIT ?) ORDER BY doc DESC',
      [fts, before, limit],
    ).map(([doc, thread, message]) => ({ doc: doc as number, thread: thread as string, message: message as string }));
  }

  /** Matching documents below `before`, newest first, at most `limit`. */
  matches(query: SegmentQuery, before: number, limit: number): SegmentMatch[] {
    return this.matching(query.fts, before, limit);
  }

  /** The threads' matching documents, newest first. */
  threadMatches(query: SegmentQuery, threadIds: readonly string[]): SegmentMatch[] {
    return this.matching(query.ofThreads(threadIds), Number.MAX_SAFE_INTEGER, -1);
  }

  /** Its first `limit` words that begin with `prefix`, in byte order (as Redis orders the live index's). */
  completions(prefix: string, limit: number): string[] {
    return this.rows('SELECT term FROM terms WHERE term >= ?1 AND term < ?1 || char(1114111) ORDER BY term LIMIT ?2', [
      prefix,
      limit,
    ]).map(([term]) => term as string);
  }

  /**
   * Every document, by number, its words read back from the index (in byte order, each once: what
   * FTS5 needs of them): a merge writes them into one segment.
   */
  docs(): SegmentDoc[] {
    if (!this.instances) {
      this.db.exec("CREATE VIRTUAL TABLE temp.instances USING fts5vocab(main, found, 'instance')");
      this.instances = true;
    }
    // Joined here: as one SQL join (the grouped words scanned again for each document), 13 times slower.
    const words = new Map(
      this.db.selectArrays(
        "SELECT doc, group_concat(term, ' ') FROM instances WHERE term NOT GLOB '_*' GROUP BY doc",
      ) as [number, string][],
    );
    return (
      this.db.selectArrays('SELECT doc, message, thread FROM docs ORDER BY doc') as [number, string, string][]
    ).map(([doc, message, thread]) => ({ doc, message, thread, words: words.get(doc) ?? '' }));
  }

  /** Whether it holds these documents: each number's answer. */
  holds(docs: readonly number[]): boolean[] {
    // One JSON argument: a statement takes at most 32,766 of its own.
    const held = new Set(
      this.db.selectValues('SELECT doc FROM docs WHERE doc IN (SELECT value FROM json_each(?))', [
        JSON.stringify(docs),
      ]),
    );
    return docs.map((doc) => held.has(doc));
  }

  close(): void {
    this.closed = true;
    for (const statement of this.statements.values()) statement.finalize();
    this.db.close();
  }
}

/**
 * Opens a segment from its bytes (copied into SQLite's memory, read-only). A file of the first layout
 * is rebuilt from its documents in this one, in memory: the blob stays as it is until a merge
 * replaces it.
 */
async function openSegment(bytes: Uint8Array): Promise<Segment> {
  const sqlite3 = await sqlite();
  const db = new sqlite3.oo1.DB(':memory:');
  // A Buffer is refused: SQLite's allocator picks the heap by the array's own class.
  const pointer = sqlite3.wasm.allocFromTypedArray(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  const { capi } = sqlite3;
  const rc = capi.sqlite3_deserialize(
    db,
    'main',
    pointer,
    bytes.byteLength,
    bytes.byteLength,
    capi.SQLITE_DESERIALIZE_FREEONCLOSE | capi.SQLITE_DESERIALIZE_READONLY,
  );
  db.checkRc(rc);
  if (db.selectValue('PRAGMA user_version') === LAYOUT) return new Segment(db, bytes.byteLength);
  try {
    return await openSegment(
      await buildSegment(db.selectObjects('SELECT doc, message, thread, words FROM docs') as unknown as SegmentDoc[]),
    );
  } finally {
    db.close();
  }
}

/**
 * Opened segments by blob hash, least recently taken first, up to `maxBytes` together but those in use:
 * a segment never changes, so what is cached is never stale. One a process (SEARCH_SEGMENT_CACHE_BYTES).
 */
export class SegmentCache {
  private readonly open = new Map<string, Segment>();
  private readonly loading = new Map<string, Promise<Segment>>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** The segment of this hash, read by `load` when not open here; give it back (`release`) once read. */
  async take(sha: string, load: () => Promise<Uint8Array>): Promise<Segment> {
    const segment = this.open.get(sha) ?? (await this.load(sha, load));
    // Closed while its reader waited: another take made room.
    if (segment.closed) return this.take(sha, load);
    this.open.delete(sha);
    this.open.set(sha, segment);
    segment.users++;
    this.trim();
    return segment;
  }

  release(segment: Segment): void {
    segment.users--;
    this.trim();
  }

  private load(sha: string, load: () => Promise<Uint8Array>): Promise<Segment> {
    let loading = this.loading.get(sha);
    if (!loading) {
      loading = load()
        .then(openSegment)
        .then((segment) => {
          this.bytes += segment.bytes;
          this.open.set(sha, segment);
          return segment;
        })
        .finally(() => this.loading.delete(sha));
      this.loading.set(sha, loading);
    }
    return loading;
  }

  private trim(): void {
    for (const [sha, segment] of this.open) {
      if (this.bytes <= this.maxBytes) return;
      if (segment.users > 0) continue;
      this.open.delete(sha);
      this.bytes -= segment.bytes;
      segment.close();
    }
  }
}
