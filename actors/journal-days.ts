/**
 * The journal's days in history (docs/architecture.md, "Journal layout"): each Paris day older than
 * ARCHIVE_AFTER_DAYS is one gzipped document in the blob store (written by actors/journal-history.ts),
 * named in the space's `journal:days` hash, whose `to` is where Redis's part of the journal begins.
 * What the reader (readJournal, actors/journal.ts) and the mover share: the document's shape, the days
 * and their lookup. A leaf of the actors.
 */
import { DateTime } from 'luxon';
import { spaceKeys } from '../src/redis/keys.js';
import type { Runtime } from '../src/runtime.js';
import { PARIS } from '../src/texts.js';
import { readBlobDocument } from './blob-documents.js';

/** A day's document: its lines as Redis stored them, oldest first, and where each list's lines are among them. */
export interface JournalDay {
  /** The Paris day, YYYY-MM-DD. */
  day: string;
  /** The line id bodies (ids without `log_`), ascending. */
  bodies: string[];
  /** Each line's compact JSON as stored, in the order of `bodies`. */
  lines: string[];
  /** Each index list's prefix (indexPrefix, `* ` left out: every line) -> the positions of its lines, ascending. */
  lists: Record<string, number[]>;
  /** When it was written (ms): a day moved again after a failed drop never writes the bytes of a blob the sweep may be removing. */
  at: number;
}

const parisDate = (ms: number): DateTime => DateTime.fromMillis(ms, { zone: PARIS });

/** The start (ms) of the Paris day holding this moment. */
export const dayStart = (ms: number): number => parisDate(ms).startOf('day').toMillis();

/** The start (ms) of the Paris day after the one holding this moment (a day lasts 23 to 25 hours). */
export const nextDayStart = (ms: number): number => parisDate(ms).startOf('day').plus({ days: 1 }).toMillis();

/** The Paris day holding this moment, YYYY-MM-DD. */
export const dayName = (ms: number): string => parisDate(ms).toISODate()!;

/** Where Redis's part of the space's journal begins (ms): every earlier line is in a day document; null when no day moved. */
export async function movedUpTo(rt: Runtime, spaceId: string): Promise<number | null> {
  const to = await rt.redis.hget(spaceKeys(spaceId).journalDays, 'to');
  return to === null ? null : Number(to);
}

/** The documents' SHA-256 of these days, null for a day without one (no line that day). */
export const dayDocuments = (rt: Runtime, spaceId: string, days: string[]): Promise<(string | null)[]> =>
  rt.redis.hmget(spaceKeys(spaceId).journalDays, ...days);

export const readDay = (rt: Runtime, spaceId: string, ref: string): Promise<JournalDay> =>
  readBlobDocument<JournalDay>(rt, spaceId, ref);
