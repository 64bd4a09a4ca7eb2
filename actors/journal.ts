/**
 * The space's journal: who did what and when (list_events). A line is written by the same script as
 * the change it tells, so the journal never lies about what happened. Its French text is rendered at
 * read time from `kind` and `data` (JOURNAL_TEXTS in src/texts.ts).
 */
import { recordsInHistory, withFieldsInHistory } from './history-records.js';
import type { Runtime } from '../src/runtime.js';
import { spaceKeys } from '../src/redis/keys.js';
import {
  decodeTime,
  encodeTime,
  ID_BODY_CHARS,
  ID_BODY_PATTERN,
  ID_PREFIXES,
  idBody,
  idPattern,
  idTime,
} from '../src/ids.js';
import { iso } from '../src/clock.js';
import { maskEmail, type JournalKind } from '../src/texts.js';
import { execAll } from '../src/redis/pipeline.js';
import * as journalLua from './bindings/journal.generated.js';
import * as spaceLua from './bindings/space.generated.js';
import { dayDocuments, dayName, dayStart, movedUpTo, nextDayStart, readDay } from './journal-days.js';

export type ActorKind = 'agent' | 'human' | 'service';

export interface Actor {
  kind: ActorKind;
  name: string;
  key_id: string | null;
}

export const SERVICE_ACTOR: Actor = { kind: 'service', name: 'Mailbox', key_id: null };

/** The space's human, signed in on the service's pages (actors/human-session.ts), named by a masked address. */
export const humanActor = (email: string): Actor => ({
  kind: 'human',
  name: maskEmail(email) ?? 'humain',
  key_id: null,
});

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

/**
 * What an index entry of a ref starts with; the line id's body (its time then its random part)
 * follows. An object id has the same length as every other, so it needs no separator: its entries
 * stay within a smaller allocation in Redis. `*`, an address and a domain end with a space.
 */
const indexPrefix = (ref: string): string => (ref === '*' || ref.includes(':') ? `${ref} ` : ref);

export interface PreparedLine {
  id: string;
  json: string;
  refs: string;
}

/** The refs in the order a line shows them (list_events). */
const REF_NAMES = ['inbox_id', 'thread_id', 'message_id', 'campaign_id', 'audience_id', 'contact', 'domain'] as const;
/**
 * The positions of a stored line's refs: ids kept without their prefix (the position names it), an
 * address and a domain as given. A message's and its contact first: the refs of a line about a
 * message (MESSAGE_LINES) end there, with no `0` before them.
 */
const REF_POSITIONS = [
  'message_id',
  'contact',
  'inbox_id',
  'thread_id',
  'campaign_id',
  'audience_id',
  'domain',
] as const;

/** Refs in REF_NAMES order, whatever order they were gathered in. */
const inOrder = (refs: JournalRefs): JournalRefs =>
  Object.fromEntries(REF_NAMES.filter((name) => refs[name] !== undefined).map((name) => [name, refs[name]]));
const REF_PREFIXES: Partial<Record<keyof JournalRefs, string>> = {
  inbox_id: ID_PREFIXES.inbox,
  thread_id: ID_PREFIXES.thread,
  message_id: ID_PREFIXES.message,
  campaign_id: ID_PREFIXES.campaign,
  audience_id: ID_PREFIXES.audience,
};
const ACTOR_KINDS: Record<ActorKind, string> = { agent: 'a', human: 'h', service: 's' };

/**
 * The stored form of a line, under its id: `{kind, a: [actor kind letter, name, key id body?], r: refs by
 * position (0 when absent, trailing ones left off; no `r` without refs), data}`, without `id` or `at`
 * (the id is the hash field, `at` its time), without `a` for the service (SERVICE_ACTOR) and without
 * `data` when it is empty: a quarter to a third fewer Redis bytes than the named form `{id, at, kind,
 * actor, refs, data}` (BENCHMARKS.md, "Redis memory per message"). `kind` and `data` keep their names:
 * scripts complete them (`line.data.x = ...`, `line.kind = ...`: only lines whose data is never empty)
 * and lua/includes/replayedLine.lua reads them.
 */
interface CompactLine {
  kind: string;
  a?: [string, string, string?];
  r?: (string | 0)[];
  data?: Record<string, unknown>;
}

/** An actor's key id as a line stores it: a `key_` id as its body (the human's access has none of that shape). */
const KEY_ID = new RegExp(idPattern('key'));
const ID_BODY = new RegExp(`^${ID_BODY_PATTERN}$`);
const storedKeyId = (keyId: string): string => (KEY_ID.test(keyId) ? idBody(keyId) : keyId);
const keyIdOf = (stored: string): string => (ID_BODY.test(stored) ? `${ID_PREFIXES.key}_${stored}` : stored);

const isService = (actor: Actor): boolean =>
  actor.kind === SERVICE_ACTOR.kind && actor.name === SERVICE_ACTOR.name && actor.key_id === null;

/**
 * Lines about one message whose subject and correspondent no longer change once written (a draft's
 * still do: draft.created and draft.updated keep theirs), and the data field naming that correspondent.
 * Their stored form leaves off what the message's hash keeps (its subject, whether it is a test, its
 * inbox and thread refs) and the correspondent when it is their contact ref; readJournal puts them
 * back: a send's line is about half as long (BENCHMARKS.md, "Redis memory per message").
 */
const MESSAGE_LINES: Partial<Record<string, 'to' | 'from'>> = {
  'message.queued': 'to',
  'draft.approved': 'to',
  'message.cancelled': 'to',
  'message.sent': 'to',
  'message.delivered': 'to',
  'message.failed': 'to',
  'message.rejected': 'to',
  'message.received': 'from',
  'thread.replied': 'from',
} satisfies Partial<Record<JournalKind, 'to' | 'from'>>;

const correspondentField = (kind: string, refs: JournalRefs): 'to' | 'from' | undefined =>
  refs.message_id ? MESSAGE_LINES[kind] : undefined;

/** The data a line stores: a flag at false is left off (the texts read an absent one as false), and what MESSAGE_LINES leaves to the message. */
function storedData(kind: string, refs: JournalRefs, data: Record<string, unknown>): Record<string, unknown> {
  const correspondent = correspondentField(kind, refs);
  const leftToMessage = (name: string, value: unknown): boolean =>
    correspondent !== undefined &&
    (name === 'subject' || name === 'test' || (name === correspondent && (value ?? null) === (refs.contact || null)));
  return Object.fromEntries(
    Object.entries(data).filter(([name, value]) => value !== false && !leftToMessage(name, value)),
  );
}

/** The refs of MESSAGE_LINES that the message's hash keeps (withMessageFacts). */
const MESSAGE_REFS: readonly (keyof JournalRefs)[] = ['inbox_id', 'thread_id'];

function compactLine(kind: string, actor: Actor, refs: JournalRefs, data: Record<string, unknown>): CompactLine {
  const aboutMessage = correspondentField(kind, refs) !== undefined;
  const positions = REF_POSITIONS.map((name) => {
    const value = aboutMessage && MESSAGE_REFS.includes(name) ? undefined : refs[name];
    return !value ? 0 : REF_PREFIXES[name] ? idBody(value) : value;
  });
  while (positions.length > 0 && positions[positions.length - 1] === 0) positions.pop();
  const line: CompactLine = { kind };
  if (!isService(actor))
    line.a =
      actor.key_id === null
        ? [ACTOR_KINDS[actor.kind], actor.name]
        : [ACTOR_KINDS[actor.kind], actor.name, storedKeyId(actor.key_id)];
  if (positions.length > 0) line.r = positions;
  const stored = storedData(kind, refs, data);
  if (Object.keys(stored).length > 0) line.data = stored;
  return line;
}

/** A line as stored, its correspondent put back (MESSAGE_LINES); withMessageFacts puts back the rest. */
function storedLine(id: string, raw: string): StoredLine {
  const { kind, a, r = [], data = {} } = JSON.parse(raw) as CompactLine;
  const gathered: JournalRefs = {};
  r.forEach((value, i) => {
    const refName = REF_POSITIONS[i]!;
    if (value !== 0) gathered[refName] = REF_PREFIXES[refName] ? `${REF_PREFIXES[refName]}_${value}` : value;
  });
  const refs = inOrder(gathered);
  const correspondent = correspondentField(kind, refs);
  if (correspondent && !(correspondent in data)) data[correspondent] = refs.contact ?? null;
  if (!a) return { id, at: iso(idTime(id)), kind, actor: { ...SERVICE_ACTOR }, refs, data };
  const [letter, name, keyId] = a;
  const actorKind = (Object.keys(ACTOR_KINDS) as ActorKind[]).find((k) => ACTOR_KINDS[k] === letter)!;
  return {
    id,
    at: iso(idTime(id)),
    kind,
    actor: { kind: actorKind, name, key_id: keyId === undefined ? null : keyIdOf(keyId) },
    refs,
    data,
  };
}

/**
 * The refs a line is indexed under: all but the message of a line that names its thread, read through
 * the thread's list (readJournal): a message's lines are a few of its thread's, and a list of its own
 * would cost a field of the index hash, about 90 bytes of Redis (docs/architecture.md, "Journal layout").
 */
const indexedRefs = (refs: JournalRefs): (keyof JournalRefs)[] =>
  (Object.keys(refs) as (keyof JournalRefs)[]).filter((name) => name !== 'message_id' || !refs.thread_id);

/** The index lists (their prefixes) a line of these refs is filed in, besides `* `. */
const listsOf = (refs: JournalRefs): string[] =>
  indexedRefs(refs)
    .map((name) => refKey(refs, name))
    .filter((ref) => ref !== null)
    .map(indexPrefix);

/** A line ready for a script's ARGV: its id, its stored form and its index refs. */
export function prepareLine(
  rt: Runtime,
  kind: JournalKind,
  actor: Actor,
  refs: JournalRefs,
  data: Record<string, unknown>,
): PreparedLine {
  const id = rt.ids.next('journal');
  return { id, json: JSON.stringify(compactLine(kind, actor, refs, data)), refs: JSON.stringify(listsOf(refs)) };
}

/** A prepared line as the three arguments of the script that writes it (docs/architecture.md, "Script headers"). */
export const lineArgs = (line: PreparedLine): { lineId: string; lineJson: string; lineRefs: string } => ({
  lineId: line.id,
  lineJson: line.json,
  lineRefs: line.refs,
});

/** Journals a change made outside Redis (a payment page opened, a mail filtered, a code e-mailed): the line alone. Refusal: not_found. */
export async function appendLine(rt: Runtime, spaceId: string, line: PreparedLine): Promise<void> {
  const keys = spaceKeys(spaceId);
  await spaceLua.appendLine(
    rt.scripts,
    { space: keys.space, journal: keys.journal, journalIndex: keys.journalIndex },
    lineArgs(line),
  );
}

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

/**
 * Where a ref's lines are indexed, and which of that range's lines are its own: a message's under its
 * thread (indexedRefs), one without a thread (unknown when the line was written) under itself.
 */
async function indexRange(
  rt: Runtime,
  spaceId: string,
  ref: string,
): Promise<{ indexed: string; own: (line: StoredLine) => boolean }> {
  const thread = ref.startsWith(`${ID_PREFIXES.message}_`)
    ? ((await rt.redis.hget(spaceKeys(spaceId).message(ref), 'thread_id')) ??
      (await recordsInHistory(rt, spaceId, [ref])).get(ref)?.thread_id)
    : null;
  return thread ? { indexed: thread, own: (line) => line.refs.message_id === ref } : { indexed: ref, own: () => true };
}

/** Puts back what the lines about a message left to the message's hash (MESSAGE_LINES): one round trip. */
async function withMessageFacts(rt: Runtime, spaceId: string, lines: (StoredLine | null)[]): Promise<void> {
  const about = lines.filter(
    (line): line is StoredLine =>
      line !== null && correspondentField(line.kind, line.refs) !== undefined && !('subject' in line.data),
  );
  if (!about.length) return;
  const fields = [...MESSAGE_REFS, 'subject', 'test'];
  const pipeline = rt.redis.pipeline();
  for (const line of about) pipeline.hmget(spaceKeys(spaceId).message(line.refs.message_id!), ...fields);
  // A message of a thread in history: its facts are in the thread's document.
  const facts = await withFieldsInHistory(
    rt,
    spaceId,
    about.map((line) => line.refs.message_id!),
    fields,
    await execAll<(string | null)[]>(pipeline),
  );
  about.forEach((line, i) => {
    const [inboxId, threadId, subject, test] = facts[i]!;
    line.refs = inOrder({ ...line.refs, inbox_id: inboxId ?? undefined, thread_id: threadId ?? undefined });
    line.data.subject = subject ?? '';
    if (test === '1') line.data.test = true;
  });
}

/**
 * The index lists each of these stored lines is filed in besides `* `, as readJournal finds it: its
 * refs with those its message keeps put back (withMessageFacts). A moved day's document files its
 * lines so (actors/journal-history.ts).
 */
export async function listsOfLines(
  rt: Runtime,
  spaceId: string,
  stored: { id: string; raw: string }[],
): Promise<string[][]> {
  const lines = stored.map(({ id, raw }) => storedLine(id, raw));
  await withMessageFacts(rt, spaceId, lines);
  return lines.map((line) => listsOf(line.refs));
}

/**
 * Adds the visible lines of a run read newest first to the page; once the page is full, the next
 * visible line answers the cursor to go on from (the page's last id), else null.
 */
function collect(
  page: StoredLine[],
  run: (StoredLine | null)[],
  q: JournalQuery,
  own: (line: StoredLine) => boolean,
): string | null {
  for (const line of run) {
    if (!line || !own(line) || !q.visible(line)) continue;
    if (page.length === q.limit) return page[page.length - 1]!.id;
    page.push(line);
  }
  return null;
}

/** How many day documents a page opens at most: past them it answers with what it found and a cursor to go on. */
const DAYS_A_PAGE = 31;
/** Days looked up in `journal:days` at a time. */
const DAYS_A_LOOKUP = 62;
/** How far behind the clock that drew an object's id another process's may be when it journals about it. */
const CLOCK_MARGIN_MS = 60_000;
const OBJECT_ID = new RegExp(`^[a-z]+_${ID_BODY_PATTERN}$`);

/** The earliest a ref's lines may be (ms): its object's creation for an id, else (every line, an address, a domain) its space's. */
const refStart = (spaceId: string, ref: string): number =>
  idTime(OBJECT_ID.test(ref) ? ref : spaceId) - CLOCK_MARGIN_MS;

interface Reading {
  q: JournalQuery;
  prefix: string;
  own: (line: StoredLine) => boolean;
  /** The exclusive upper bound of the page's bodies ('' for none). */
  upper: string;
  page: StoredLine[];
}

/**
 * The rest of a page from the day documents (actors/journal-days.ts), newest day first, from the one
 * under the page's upper bound and the moved days' end (`moved`) down to the query's lower bound or the
 * ref's start (refStart). Past DAYS_A_PAGE documents it answers with a cursor before the next day.
 */
async function readMovedDays(
  rt: Runtime,
  spaceId: string,
  moved: number,
  { q, prefix, own, upper, page }: Reading,
): Promise<{ lines: StoredLine[]; next: string | null }> {
  // A bound of a time alone (a day's end, a cursor between days) excludes its own millisecond.
  const top = Math.min(moved - 1, upper ? decodeTime(upper) - (upper.length < ID_BODY_CHARS ? 1 : 0) : Infinity);
  const bottom = dayStart(Math.max(q.from ?? 0, refStart(spaceId, q.ref)));
  const from = q.from === null ? '' : encodeTime(q.from);
  let opened = 0;
  for (let day = dayStart(top); day >= bottom;) {
    const starts: number[] = [];
    for (; day >= bottom && starts.length < DAYS_A_LOOKUP; day = dayStart(day - 1)) starts.push(day);
    const shas = await dayDocuments(rt, spaceId, starts.map(dayName));
    for (const [i, sha] of shas.entries()) {
      if (!sha) continue;
      if (opened === DAYS_A_PAGE)
        return { lines: page, next: `${ID_PREFIXES.journal}_${encodeTime(nextDayStart(starts[i]!))}` };
      opened++;
      const document = await readDay(rt, spaceId, sha);
      const positions =
        prefix === indexPrefix('*') ? document.bodies.map((_, at) => at) : (document.lists[prefix] ?? []);
      const wanted = positions
        .filter((at) => (!upper || document.bodies[at]! < upper) && document.bodies[at]! >= from)
        .reverse();
      for (let at = 0; at < wanted.length; at += q.limit + 1) {
        const run = wanted
          .slice(at, at + q.limit + 1)
          .map((position) =>
            storedLine(`${ID_PREFIXES.journal}_${document.bodies[position]!}`, document.lines[position]!),
          );
        await withMessageFacts(rt, spaceId, run);
        const next = collect(page, run, q, own);
        if (next) return { lines: page, next };
      }
    }
  }
  return { lines: page, next: null };
}

/**
 * Newest first. Returns the page and, when more lines may exist, the id to continue before. Redis's
 * part of the journal first (from the moved days' end on), then the day documents (readMovedDays).
 */
export async function readJournal(
  rt: Runtime,
  spaceId: string,
  q: JournalQuery,
): Promise<{ lines: StoredLine[]; next: string | null }> {
  const keys = spaceKeys(spaceId);
  const [{ indexed, own }, moved] = await Promise.all([indexRange(rt, spaceId, q.ref), movedUpTo(rt, spaceId)]);
  const prefix = indexPrefix(indexed);
  const upper = q.before ? idBody(q.before) : q.to === null ? '' : encodeTime(q.to);
  const queryFrom = q.from === null ? '' : encodeTime(q.from);
  const movedFrom = moved === null ? '' : encodeTime(moved);
  const from = queryFrom > movedFrom ? queryFrom : movedFrom;
  const page: StoredLine[] = [];
  let below = upper;
  let scanned = 0;
  let last: string | null = null;
  while (scanned < SCAN_CAP) {
    const { bodies } = await journalLua.readIndex(
      rt.scripts,
      { journalIndex: keys.journalIndex },
      { prefix, below, from, count: q.limit + 1 },
    );
    const ids: string[] = [];
    for (let at = 0; at < bodies.length; at += ID_BODY_CHARS)
      ids.push(`${ID_PREFIXES.journal}_${bodies.slice(at, at + ID_BODY_CHARS)}`);
    if (!ids.length) break;
    const values = await rt.redis.hmget(keys.journal, ...ids);
    const run = ids.map((id, i) => (values[i] ? storedLine(id, values[i]) : null));
    await withMessageFacts(rt, spaceId, run);
    const next = collect(page, run, q, own);
    if (next) return { lines: page, next };
    scanned += ids.length;
    last = ids[ids.length - 1]!;
    if (ids.length < q.limit + 1) break;
    below = idBody(last);
  }
  if (scanned >= SCAN_CAP) return { lines: page, next: last };
  // A move since `moved` was read took lines this walk did not reach out of Redis: history goes on under the last one it read.
  const movedNow = await movedUpTo(rt, spaceId);
  if (movedNow === null) return { lines: page, next: null };
  const under = movedNow !== moved && last ? idBody(last) : upper;
  return readMovedDays(rt, spaceId, movedNow, { q, prefix, own, upper: under, page });
}
