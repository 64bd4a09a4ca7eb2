/**
 * A search segment's file (docs/architecture.md, "Search"): an SQLite database with an FTS5 index,
 * written once, read-only after, kept in the blob store (actors/search-segments.ts). SQLite runs here
 * as WebAssembly (@sqlite.org/sqlite-wasm): no native addon to build per Node version, and a database
 * is made in memory and exported as bytes, or opened from bytes, without a file.
 * A document keeps its number in the space's index, its message and thread ids, its words as the live
 * index has them (src/mail/words.ts: folded, stop words left out) and the head of its text for the
 * snippet. The words are folded before FTS5 sees them, so both indexes match the same words; FTS5's
 * own folding (remove_diacritics 2) then changes nothing of them.
 */
import sqlite3Init, { type Database, type PreparedStatement, type Sqlite3Static } from '@sqlite.org/sqlite-wasm';

export interface SegmentDoc {
  doc: number;
  message: string;
  thread: string;
  /** The document's words, space-separated (messageWords). */
  words: string;
  /** What its snippet is cut from (snippetSource). */
  text: string;
}

const SCHEMA = `
  CREATE TABLE docs(doc INTEGER PRIMARY KEY, message TEXT NOT NULL, thread TEXT NOT NULL, words TEXT NOT NULL, text TEXT NOT NULL);
  CREATE INDEX docs_thread ON docs(thread, doc);
  CREATE VIRTUAL TABLE found USING fts5(words, content='docs', content_rowid='doc', tokenize='unicode61 remove_diacritics 2', detail=none);`;

let engine: Promise<Sqlite3Static> | null = null;
const sqlite = (): Promise<Sqlite3Static> => (engine ??= sqlite3Init());

/** A segment's bytes from its documents, in any order (each number once: the first given is kept). */
export async function buildSegment(docs: readonly SegmentDoc[]): Promise<Uint8Array> {
  const sqlite3 = await sqlite();
  const db = new sqlite3.oo1.DB(':memory:');
  try {
    db.exec(SCHEMA);
    const insert = db.prepare('INSERT OR IGNORE INTO docs VALUES (?, ?, ?, ?, ?)');
    db.transaction(() => {
      for (const d of [...docs].sort((a, b) => a.doc - b.doc))
        insert.bind([d.doc, d.message, d.thread, d.words, d.text]).stepReset();
    });
    insert.finalize();
    // One b-tree per index, no free pages: the smallest file, and the same bytes for the same documents.
    db.exec("INSERT INTO found(found) VALUES ('rebuild'); INSERT INTO found(found) VALUES ('optimize'); VACUUM;");
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
  private readonly completions: Set<string>;

  constructor(
    private readonly words: readonly string[],
    completions: readonly string[],
  ) {
    this.completions = new Set(completions);
    this.fts = [...words.map((word) => `"${word}"`), `(${completions.map((word) => `"${word}"`).join(' OR ')})`].join(
      ' AND ',
    );
  }

  /**
   * Whether a document's words (space-separated, as stored) answer it: the few documents of one thread
   * are tested here, not by FTS5, which would parse the query and seek its words' lists again for each.
   */
  test(stored: string): boolean {
    const words = stored.split(' ');
    return this.words.every((word) => words.includes(word)) && words.some((word) => this.completions.has(word));
  }
}

/** An opened segment, read-only. */
export class Segment {
  private vocabulary = false;
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

  /** Matching documents below `before`, newest first, at most `limit`. */
  matches(query: SegmentQuery, before: number, limit: number): { doc: number; thread: string }[] {
    return this.rows(
      'SELECT doc, thread FROM docs WHERE doc IN (SELECT rowid FROM found WHERE found MATCH ? AND rowid < ? ORDER BY rowid DESC LIMIT ?) ORDER BY doc DESC',
      [query.fts, before, limit],
    ).map(([doc, thread]) => ({ doc: doc as number, thread: thread as string }));
  }

  /** A thread's matching documents, newest first, at most `limit`. */
  threadMatches(query: SegmentQuery, threadId: string, limit: number): { doc: number; message: string }[] {
    const found: { doc: number; message: string }[] = [];
    for (const [doc, message, words] of this.rows(
      'SELECT doc, message, words FROM docs WHERE thread = ? ORDER BY doc DESC',
      [threadId],
    )) {
      if (found.length === limit) break;
      if (query.test(words as string)) found.push({ doc: doc as number, message: message as string });
    }
    return found;
  }

  /** Its first `limit` words that begin with `prefix`, in byte order (as Redis orders the live index's). */
  completions(prefix: string, limit: number): string[] {
    if (!this.vocabulary) {
      // In the connection's own temporary schema: the file stays read-only.
      this.db.exec("CREATE VIRTUAL TABLE temp.vocabulary USING fts5vocab(main, found, 'row')");
      this.vocabulary = true;
    }
    return this.rows(
      'SELECT term FROM vocabulary WHERE term >= ?1 AND term < ?1 || char(1114111) ORDER BY term LIMIT ?2',
      [prefix, limit],
    ).map(([term]) => term as string);
  }

  text(doc: number): string {
    return (this.rows('SELECT text FROM docs WHERE doc = ?', [doc])[0]?.[0] as string | undefined) ?? '';
  }

  /** Every document, by number (a merge writes them into one segment). */
  docs(): SegmentDoc[] {
    return this.db.selectObjects(
      'SELECT doc, message, thread, words, text FROM docs ORDER BY doc',
    ) as unknown as SegmentDoc[];
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

/** Opens a segment from its bytes (copied into SQLite's memory, read-only). */
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
  return new Segment(db, bytes.byteLength);
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
