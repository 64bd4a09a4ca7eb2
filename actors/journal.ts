/**
 * The space's journal: who did what and when (list_events). A line is written by the same script as
 * the change it tells, so the journal never lies about what happened. Its French text is rendered at
 * read time from `kind` and `data` (JOURNAL_TEXTS in src/texts.ts).
 */
import type { Runtime } from '../src/runtime.js';
import { spaceKeys } from '../src/redis/keys.js';
import { encodeTime, ID_PREFIXES } from '../src/ids.js';
import { iso } from '../src/clock.js';
import { maskEmail, type JournalKind } from '../src/texts.js';

export type ActorKind = 'agent' | 'human' | 'service';

export interface Actor {
  kind: ActorKind;
  name: string;
  key_id: string | null;
}

export const SERVICE_ACTOR: Actor = { kind: 'service', name: 'Mailbox', key_id: null };

/** The space's human, signed in on the service's pages (actors/human-session.ts), named by a masked address. */
export const humanActor = (email: string): Actor => ({ kind: 'human', name: maskEmail(email) ?? 'humain', key_id: null });

/** Objects a line touches; each one is also an index to read the line by. */
export interface JournalRefs {
  inbox_id?: string;
  thread_id?: string;
  message_id?: string;
  campaign_id?: string;
  audience_id?: string;
  contact?: string;
  domain?: string;
}

export interface StoredLine {
  id: string;
  at: string;
  kind: string;
  actor: Actor;
  refs: JournalRefs;
  data: Record<string, unknown>;
}

/** The index entry of a ref: object ids as they are, addresses and domains with a tag. */
export function refKey(refs: JournalRefs, name: keyof JournalRefs): string | null {
  const value = refs[name];
  if (!value) return null;
  if (name === 'contact') return `c:${value.toLowerCase()}`;
  if (name === 'domain') return `d:${value.toLowerCase()}`;
  return value;
}

export interface PreparedLine {
  id: string;
  json: string;
  refs: string;
}

/** A line ready for a script's ARGV: its id, its JSON and its index refs. */
export function prepareLine(rt: Runtime, kind: JournalKind, actor: Actor, refs: JournalRefs, data: Record<string, unknown>): PreparedLine {
  const id = rt.ids.next('journal');
  const line: StoredLine = { id, at: iso(rt.clock.now()), kind, actor, refs, data };
  const indexRefs = (Object.keys(refs) as (keyof JournalRefs)[]).map((name) => refKey(refs, name)).filter(Boolean);
  return { id, json: JSON.stringify(line), refs: JSON.stringify(indexRefs) };
}

export const lineArgs = (line: PreparedLine): string[] => [line.id, line.json, line.refs];

export interface JournalQuery {
  /** `*` for every line, else a ref (see refKey). */
  ref: string;
  /** Paris day bounds (ms), or null for the whole history. */
  from: number | null;
  to: number | null;
  /** Exclusive upper bound: the last line id of the previous page. */
  before: string | null;
  limit: number;
  visible: (line: StoredLine) => boolean;
}

/** How many index entries one call may scan for a restricted key before it returns a short page. */
const SCAN_CAP = 2000;

/** Newest first. Returns the page and, when more lines may exist, the id to continue before. */
export async function readJournal(rt: Runtime, spaceId: string, q: JournalQuery): Promise<{ lines: StoredLine[]; next: string | null }> {
  const keys = spaceKeys(spaceId);
  const prefix = `${q.ref} `;
  const timeBound = (ms: number) => `${prefix}${ID_PREFIXES.journal}_${encodeTime(ms)}`;
  const min = q.from === null ? `[${prefix}` : `[${timeBound(q.from)}`;
  let max = q.before ? `(${prefix}${q.before}` : q.to === null ? `[${prefix}~` : `(${timeBound(q.to)}`;
  const lines: StoredLine[] = [];
  let scanned = 0;
  let last: string | null = null;
  while (scanned < SCAN_CAP) {
    const members = await rt.redis.zrevrangebylex(keys.journalIndex, max, min, 'LIMIT', 0, q.limit + 1);
    if (members.length === 0) return { lines, next: null };
    const ids = members.map((m) => m.slice(prefix.length));
    const values = await rt.redis.hmget(keys.journal, ...ids);
    for (let i = 0; i < ids.length; i++) {
      last = ids[i]!;
      scanned++;
      const raw = values[i];
      if (!raw) continue;
      const line = JSON.parse(raw) as StoredLine;
      if (!q.visible(line)) continue;
      if (lines.length === q.limit) return { lines, next: lines[lines.length - 1]!.id };
      lines.push(line);
    }
    if (members.length < q.limit + 1) return { lines, next: null };
    max = `(${prefix}${last}`;
  }
  return { lines, next: last };
}
