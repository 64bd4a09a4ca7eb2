/**
 * The journal's old days move into the blob store (docs/architecture.md, "Journal layout"): at each
 * visit of the history mover (actors/history.ts), every whole Paris day older than ARCHIVE_AFTER_DAYS
 * whose lines are still in Redis, oldest first, becomes one gzipped document (its lines as stored and
 * where each index list's lines are among them, actors/journal-days.ts), written durably; only then
 * lua/journal/moveDays-4.lua drops the lines and their index entries, if the day is still as read, and
 * names the document in `journal:days`. A worker killed between the two leaves the lines in Redis and a
 * document nothing names (the blob sweep removes it); the next visit moves the day again.
 */
import { gzipSync } from 'node:zlib';
import { blobSetMember } from '../src/blobs/store.js';
import { encodeTime, ID_BODY_CHARS, ID_PREFIXES, idTime } from '../src/ids.js';
import { spaceKeys } from '../src/redis/keys.js';
import type { Runtime } from '../src/runtime.js';
import * as journalLua from './bindings/journal.generated.js';
import { dayName, dayStart, nextDayStart, type JournalDay } from './journal-days.js';
import { listsOfLines } from './journal.js';

/** Days a visit writes a document for, and days it looks at (most have no line): a visit's bounded work. */
const DOCUMENTS_A_VISIT = 31;
const DAYS_A_VISIT = 366;
/** Lines read (and their messages' facts) at a time while a day's document is built. */
const LINES_A_READ = 1000;
/** No limit on a day's lines: a day moves whole. */
const EVERY_LINE = 2 ** 31;
const EVERY_LIST = '* ';

const bodiesOf = (text: string): string[] => {
  const bodies: string[] = [];
  for (let at = 0; at < text.length; at += ID_BODY_CHARS) bodies.push(text.slice(at, at + ID_BODY_CHARS));
  return bodies;
};

/**
 * Moves the lines of [to, next) (`bodies` as the `* ` list gave them, newest first; none: the range
 * had no line, `to` alone moves): their document written, then Redis's drop. Answers whether it was
 * done (not when the range changed since the read).
 */
async function moveRange(
  rt: Runtime,
  spaceId: string,
  to: number | null,
  next: number,
  bodies: string,
): Promise<boolean> {
  const keys = spaceKeys(spaceId);
  const document: JournalDay = { day: dayName(next - 1), bodies: [], lines: [], lists: {}, at: rt.clock.now() };
  const ascending = bodiesOf(bodies).reverse();
  for (let from = 0; from < ascending.length; from += LINES_A_READ) {
    const slice = ascending.slice(from, from + LINES_A_READ);
    const ids = slice.map((body) => `${ID_PREFIXES.journal}_${body}`);
    const raws = await rt.redis.hmget(keys.journal, ...ids);
    const kept = slice.flatMap((body, i) => (raws[i] ? [{ id: ids[i]!, body, raw: raws[i] }] : []));
    const lists = await listsOfLines(rt, spaceId, kept);
    kept.forEach(({ body, raw }, i) => {
      const position = document.bodies.length;
      document.bodies.push(body);
      document.lines.push(raw);
      for (const prefix of lists[i]!) (document.lists[prefix] ??= []).push(position);
    });
  }
  const sha = document.bodies.length
    ? blobSetMember((await rt.ports.blobs.put(spaceId, gzipSync(JSON.stringify(document)))).sha256)
    : '';
  const reply = await journalLua.moveDays(
    rt.scripts,
    { journal: keys.journal, journalIndex: keys.journalIndex, journalDays: keys.journalDays, blobs: keys.blobs },
    {
      to: to === null ? '' : String(to),
      next,
      from: to === null ? '' : encodeTime(to),
      below: encodeTime(next),
      day: sha ? document.day : '',
      sha,
      bodies,
      prefixes: JSON.stringify([EVERY_LIST, ...Object.keys(document.lists)]),
    },
  );
  return 'moved' in reply;
}

/**
 * Moves the space's journal days older than `now - ARCHIVE_AFTER_DAYS` into the blob store, a bounded
 * number a visit (moveRange). Answers when the space's journal wants its next visit (ms): at once when
 * the visit left days to move; when the day after the last one moved may go, if it has lines; else
 * never (Infinity): later days wait for the visits the threads call for (a received message's day
 * ends within a day of its thread turning idle, and that visit finds the day with lines).
 */
export async function moveJournalDays(rt: Runtime, spaceId: string, now: number): Promise<number> {
  const keys = spaceKeys(spaceId);
  const { afterMs } = rt.config.history;
  const cutoff = now - afterMs;
  const stored = await rt.redis.hget(keys.journalDays, 'to');
  let to = stored === null ? null : Number(stored);
  // Where the days looked at end: no line is older than its space.
  const start = to ?? dayStart(idTime(spaceId));
  let end = start;
  let documents = 0;
  for (let days = 0; nextDayStart(end) <= cutoff; days++) {
    if (days === DAYS_A_VISIT || documents === DOCUMENTS_A_VISIT) return now;
    const next = nextDayStart(end);
    const { bodies } = await journalLua.readIndex(
      rt.scripts,
      { journalIndex: keys.journalIndex },
      { prefix: EVERY_LIST, below: encodeTime(next), from: to === null ? '' : encodeTime(to), count: EVERY_LINE },
    );
    end = next;
    if (!bodies) continue;
    // A line written into the range since the read: the next visit reads it again.
    if (!(await moveRange(rt, spaceId, to, next, bodies))) return now + afterMs;
    to = next;
    documents++;
  }
  // Days without a line after the last document: `to` alone moves past them.
  if (end !== (to ?? start) && !(await moveRange(rt, spaceId, to, end, ''))) return now + afterMs;
  // The day now ending the moved ones: while it holds lines, the space is due again when it may move.
  const next = nextDayStart(end);
  const { bodies: left } = await journalLua.readIndex(
    rt.scripts,
    { journalIndex: keys.journalIndex },
    { prefix: EVERY_LIST, below: encodeTime(next), from: encodeTime(end), count: 1 },
  );
  return left ? next + afterMs : Infinity;
}
