/**
 * Search segments (actors/search-segments.ts): two spaces receive the same mail in the same order; one
 * moves threads to segments, the other keeps them live. Every query answers the same in both, page by
 * page (several words, prefixes, accents, label, inbox_id, a restricted key), after a move, after a
 * crash between the segment's listing and the live index's drop, after merges, and with a moved thread
 * that receives mail again. Redis keeps a few bytes of index a moved message; erasure takes the files.
 * Runs on the file store, and on S3 under `npm run test:s3`.
 */
import { scanEveryPrimary } from '../../src/redis/scan.js';
import t from 'tap';
import { receiveInbound } from '../../actors/inbound.js';
import { moveToSegments } from '../../actors/search-segments.js';
import { shelvesOf } from '../../actors/search-archived.js';
import { eraseSpace, ERASURE_DELAY_MS } from '../../actors/closure.js';
import sqlite3Init from '@sqlite.org/sqlite-wasm';
import { buildSegment, SegmentCache, SegmentQuery, type SegmentDoc } from '../../src/mail/segment-file.js';
import { spaceKeys, spaceKeyPattern } from '../../src/redis/keys.js';
import { lastCode } from '../helpers/codes.js';
import { MASTER_KEY } from '../helpers/domains.js';
import { recipient, sender, type Sender } from '../helpers/outbound.js';
import { mondayMorning, startService } from '../helpers/service.js';
import { mailFrom } from '../helpers/mail.js';

const clock = mondayMorning();
// A posting's tail of 4 numbers: most pages also take the path that reads postings whole.
const svc = await startService({
  clock,
  env: { MAILBOX_MASTER_KEY: MASTER_KEY, SEND_WINDOW: 'always', SEARCH_TAIL_POSTINGS: '4' },
});

/** A space, its second inbox, a key restricted to its first, and its ids named as the mail script names them. */
interface Side {
  s: Sender;
  second: { id: string; address: string };
  restricted: string;
  human: string;
  names: Map<string, string>;
  threads: Map<string, string>;
}

async function side(human: string): Promise<Side> {
  const s = await sender(svc, { human });
  const second = await svc.call(s.apiKey, 'create_inbox', {
    username: 'achats',
    domain: s.domain,
    display_name: 'Achats',
  });
  const restricted = await svc.key(s.apiKey, { name: 'ventes', permissions: ['read'], inbox_ids: [s.inboxId] });
  return {
    s,
    second: { id: second.body.id, address: second.body.address },
    restricted: restricted.apiKey,
    human,
    names: new Map(),
    threads: new Map(),
  };
}
const moved = await side(recipient('humain'));
const live = await side(recipient('humain'));

const WORDS = ['tuiles', 'ardoise', 'zinc', 'chevrons', 'gouttière', 'Éléphant', 'œuvre'];
const correspondents = Array.from({ length: 10 }, (_, i) => recipient(`client${i}`));
// One recipient a sent message: a first message to the same one within 30 days is refused.
const outboundTo = Array.from({ length: 12 }, (_, i) => recipient(`achat${i}`));

/** The i-th message of the script, on one side: received in one of 10 threads, or sent (one in 7). */
async function mail(x: Side, i: number): Promise<void> {
  const name = `m${i}`;
  if (i % 7 === 6) {
    const sent = await svc.call(x.s.apiKey, 'send_email', {
      inbox_id: x.s.inboxId,
      to: outboundTo[Math.floor(i / 7)],
      subject: `Commande fournisseur ${i % 3}`,
      text: `commande ${WORDS[i % 7]} livraison lot${i % 4} ref${i}`,
    });
    if (sent.status !== 200) throw new Error(JSON.stringify(sent.body));
    x.names.set(sent.body.message.id, name);
    x.threads.set(sent.body.thread.id, `t-out-${i}`);
    return;
  }
  const thread = i % 10;
  const inbox = thread % 3 === 0 ? x.second : { id: x.s.inboxId, address: x.s.address };
  const got = await receiveInbound(
    svc.rt,
    x.s.spaceId,
    inbox,
    mailFrom(
      correspondents[thread]!,
      `Chantier ${thread}`,
      `commande ${WORDS[i % 7]} ${WORDS[(i * 3) % 7]} lot${i % 4} ref${i} ${'suite '.repeat(i % 5)}`,
    ),
  );
  x.names.set(got.message_id, name);
  x.threads.set(got.thread_id, `t${thread}`);
}

const both = async (i: number) => {
  await mail(moved, i);
  await mail(live, i);
};
for (let i = 0; i < 60; i++) await both(i);

const threadOf = (x: Side, name: string): string => [...x.threads].find(([, n]) => n === name)![0];
for (const x of [moved, live])
  await svc.call(x.s.apiKey, 'classify_thread', { thread_id: threadOf(x, 't4'), labels: ['urgent'] });

const QUERIES: [string, Record<string, unknown>][] = [
  ['commande', {}],
  ['tuiles', {}],
  ['zinc ardoise', {}],
  ['elephant', {}],
  ['ŒUVRE gouttiere', {}],
  ['chev', {}],
  ['commande lot1', {}],
  ['lot', {}],
  ['fournisseur livraison', {}],
  ['suite zinc', {}],
  // More than 64 words begin with it: the first 64 in byte order, live and moved alike.
  ['commande ref', {}],
  ['ref1', {}],
  ['absent', {}],
  ['commande', { label: 'urgent' }],
  ['commande', { inbox: 'second' }],
  ['tuiles', { key: 'restricted' }],
];

/** Every page of every query on one side, ids replaced by the script's names. */
async function answers(x: Side): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const [query, extra] of QUERIES) {
    let cursor: string | null = null;
    const pages: unknown[] = [];
    do {
      const res = await svc.call(extra.key ? x.restricted : x.s.apiKey, 'search_threads', {
        query,
        limit: 2,
        ...(extra.label ? { label: extra.label } : {}),
        ...(extra.inbox ? { inbox_id: x.second.id } : {}),
        ...(cursor ? { cursor } : {}),
      });
      if (res.status !== 200) throw new Error(JSON.stringify(res.body));
      pages.push(
        (res.body.items as { thread: { id: string }; message_ids: string[]; snippet: string }[]).map((item) => [
          x.threads.get(item.thread.id),
          item.message_ids.map((id) => x.names.get(id)),
          item.snippet,
        ]),
      );
      cursor = res.body.next_cursor;
    } while (cursor);
    out.push([query, extra, pages]);
  }
  return out;
}

const sameAnswers = async (t: { same: (a: unknown, b: unknown, what: string) => unknown }, what: string) => {
  const expected = await answers(live);
  t.same(await answers(moved), expected, what);
  return expected;
};

/** Bytes of Redis the space's search index takes (its keys, and its threads' `docs` fields), and its keys. */
async function index(x: Side): Promise<{ bytes: number; keys: string[] }> {
  const keys: string[] = [];
  // Every primary: on a Cluster, a SCAN of the client reaches one node.
  await scanEveryPrimary(svc.rt.redis, `${spaceKeyPattern(x.s.spaceId).slice(0, -1)}s:*`, async (found) => {
    keys.push(...found);
  });
  let bytes = 0;
  for (const key of keys) bytes += (await svc.rt.redis.memory('USAGE', key)) as number;
  for (const id of x.threads.keys()) bytes += await svc.rt.redis.hstrlen(spaceKeys(x.s.spaceId).thread(id), 'docs');
  return { bytes, keys };
}

t.test('moved threads answer every query as they did live', async (t) => {
  const before = await sameAnswers(t, 'the same mail answers the same');
  t.ok((before[0] as [string, unknown, unknown[][]])[2].flat().length >= 10, 'the first query finds many threads');
  const threads = ['t0', 't1', 't2', 't3', 't4', 't-out-6', 't-out-13'].map((name) => threadOf(moved, name));
  await moveToSegments(svc.rt, moved.s.spaceId, threads);
  t.equal((await shelvesOf(svc.rt, moved.s.spaceId, null)).length, 2, 'a segment per inbox touched');
  await sameAnswers(t, 'the same answers once moved');
  const { items } = (await svc.call(moved.s.apiKey, 'search_threads', { query: 'elep' })).body;
  t.ok(items.length > 0, 'an accent folded, a prefix, in a segment');
  await moveToSegments(svc.rt, moved.s.spaceId, threads);
  t.equal((await shelvesOf(svc.rt, moved.s.spaceId, null)).length, 2, 'a second call moves nothing more');
});

t.test('a moved thread that receives mail is shown once, where its newest match is', async (t) => {
  for (let i = 60; i < 75; i++) await both(i);
  await sameAnswers(t, 'new mail in moved threads');
  const { items } = (await svc.call(moved.s.apiKey, 'search_threads', { query: 'commande', limit: 50 })).body;
  const t1 = items.find((item: { thread: { id: string } }) => item.thread.id === threadOf(moved, 't1'));
  t.equal(
    items.filter((item: { thread: { id: string } }) => item.thread.id === t1.thread.id).length,
    1,
    'the thread once',
  );
  t.equal(moved.names.get(t1.message_ids[0]), 'm71', 'at its new message, its moved ones after');
  t.ok(t1.message_ids.length > 5);
});

t.test('a crash between listing a segment and dropping it from the live index', async (t) => {
  const threads = ['t5', 't6'].map((name) => threadOf(moved, name));
  await t.rejects(
    moveToSegments(svc.rt, moved.s.spaceId, threads, {
      listed: () => Promise.reject(new Error('stopped')),
    }),
  );
  await sameAnswers(t, 'each document once while it is both listed and live');
  await moveToSegments(svc.rt, moved.s.spaceId, threads);
  await sameAnswers(t, 'a second call finishes the move');
  const { items } = (await svc.call(moved.s.apiKey, 'search_threads', { query: 'chantier', limit: 50 })).body;
  t.equal(new Set(items.map((item: { thread: { id: string } }) => item.thread.id)).size, items.length);
});

t.test("an inbox's segments are merged past 4; everything moved leaves a few bytes a message", async (t) => {
  const before = await index(moved);
  const rest = [...moved.threads.keys()].filter(
    (id) => !['t0', 't1', 't2', 't3', 't4', 't5', 't6'].includes(moved.threads.get(id)!),
  );
  for (const id of rest) await moveToSegments(svc.rt, moved.s.spaceId, [id]);
  // Those of t1 and t3 again: they received mail.
  await moveToSegments(svc.rt, moved.s.spaceId, [...moved.threads.keys()]);
  const shelves = await shelvesOf(svc.rt, moved.s.spaceId, null);
  for (const inboxId of [moved.s.inboxId, moved.second.id])
    t.ok(shelves.filter((shelved) => shelved.inboxId === inboxId).length <= 4, 'at most 4 segments an inbox');
  await sameAnswers(t, 'every thread moved, merged');
  const after = await index(moved);
  const messages = moved.names.size;
  t.comment(
    `index: ${before.bytes} bytes before, ${after.bytes} after, ${messages} messages, ${shelves.length} segments`,
  );
  t.ok(before.bytes / messages > 100, 'live, a message costs its index more than 100 bytes');
  const keys = spaceKeys(moved.s.spaceId);
  t.same(after.keys.sort(), [keys.searchDocs, keys.searchSegments].sort(), 'left: the list of segments, the records');
  // An entry of the list is some 70 bytes (a few more on a Cluster, whose slots index each key), whatever
  // its segment holds: at fleet scale, thousands of messages.
  t.ok(after.bytes < 200 + 80 * shelves.length, `${after.bytes} bytes: the list's entries and the records' header`);
  const docs = await svc.rt.redis.strlen(spaceKeys(moved.s.spaceId).searchDocs);
  t.equal(docs, 40, 'the records cut, but their header');
  for (let i = 75; i < 80; i++) await both(i);
  await sameAnswers(t, 'new mail after the cut is numbered and found as before');
});

t.test('the process keeps opened segments up to its budget, the least recently read closed first', async (t) => {
  const bytes = await buildSegment([{ doc: 1, message: 'msg_a', thread: 'thr_a', words: 'alpha' }]);
  const cache = new SegmentCache(bytes.byteLength * 2);
  let loads = 0;
  const load = () => {
    loads++;
    return Promise.resolve(bytes);
  };
  const a = await cache.take('a', load);
  cache.release(a);
  cache.release(await cache.take('b', load));
  t.equal(a.closed, false);
  cache.release(await cache.take('a', load));
  cache.release(await cache.take('c', load));
  t.equal(loads, 3, 'a read once while open');
  t.equal(a.closed, false, 'read last but one: kept');
  const held = await cache.take('d', load);
  t.equal(a.closed, true, 'the least recently read closed');
  t.equal(held.closed, false, 'one in use is never closed');
  cache.release(held);
});

/** A segment file as the first layout wrote it: each document's words and text head kept in `docs` too. */
async function firstLayout(docs: readonly SegmentDoc[]): Promise<Uint8Array> {
  const sqlite3 = await sqlite3Init();
  const db = new sqlite3.oo1.DB(':memory:');
  db.exec(`
    CREATE TABLE docs(doc INTEGER PRIMARY KEY, message TEXT NOT NULL, thread TEXT NOT NULL, words TEXT NOT NULL, text TEXT NOT NULL);
    CREATE INDEX docs_thread ON docs(thread, doc);
    CREATE VIRTUAL TABLE found USING fts5(words, content='docs', content_rowid='doc', tokenize='unicode61 remove_diacritics 2', detail=none);`);
  for (const d of docs)
    db.exec({ sql: 'INSERT INTO docs VALUES (?, ?, ?, ?, ?)', bind: [d.doc, d.message, d.thread, d.words, d.words] });
  db.exec("INSERT INTO found(found) VALUES ('rebuild'); VACUUM;");
  const bytes = sqlite3.capi.sqlite3_js_db_export(db);
  db.close();
  return bytes;
}

t.test('a segment keeps no words but in its index, and a file of the first layout answers the same', async (t) => {
  const docs: SegmentDoc[] = Array.from({ length: 40 }, (_, i) => ({
    doc: 100 + 3 * i,
    message: `msg_${String(i).padStart(20, '0')}`,
    thread: `thr_${String(i % 7).padStart(20, '0')}`,
    words: i === 5 ? '' : `commande lot${i % 4} ${WORDS[i % 7]!.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()}`,
  }));
  const cache = new SegmentCache(1 << 30);
  const current = await buildSegment(docs);
  const old = await firstLayout(docs);
  t.ok(current.byteLength < old.byteLength, `${current.byteLength} bytes, the first layout ${old.byteLength}`);
  const [now, before] = [await cache.take('now', async () => current), await cache.take('before', async () => old)];
  const query = new SegmentQuery(['commande'], now.completions('lot', 64));
  t.same(
    query.fts,
    '"commande" AND ("lot0" OR "lot1" OR "lot2" OR "lot3")',
    'the last word completed, no thread token',
  );
  t.same(now.completions('', 64), before.completions('', 64), 'the same words, no thread token among them');
  for (const segment of [now, before]) {
    t.same(
      segment.docs(),
      docs.map((d) => ({ ...d, words: d.words.split(' ').filter(Boolean).sort().join(' ') })),
      'every document, its words read back',
    );
    t.same(
      segment.matches(query, 200, 3).map((match) => match.doc),
      [199, 196, 193],
    );
    t.same(
      segment.threadMatches(new SegmentQuery([], ['lot1']), ['thr_00000000000000000002', 'thr_00000000000000000006']),
      [
        { doc: 211, thread: 'thr_00000000000000000002', message: 'msg_00000000000000000037' },
        { doc: 139, thread: 'thr_00000000000000000006', message: 'msg_00000000000000000013' },
        { doc: 127, thread: 'thr_00000000000000000002', message: 'msg_00000000000000000009' },
      ],
      "those threads' matches only",
    );
  }
  t.same(await buildSegment(before.docs()), current, 'a merge of a first-layout file writes this layout');
  cache.release(now);
  cache.release(before);
});

t.test('erasure takes the segments with the space', async (t) => {
  t.ok((await svc.rt.ports.blobs.list(moved.s.spaceId)).length > 0);
  await svc.call(moved.s.apiKey, 'close_space', {});
  const confirmed = await svc.call(moved.s.apiKey, 'close_space', {
    confirmation_code: await lastCode(svc, moved.human),
  });
  t.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
  clock.advance(ERASURE_DELAY_MS);
  t.equal(await eraseSpace(svc.rt, moved.s.spaceId, Date.parse(confirmed.body.closes_at)), true);
  t.same(await svc.rt.ports.blobs.list(moved.s.spaceId), [], 'no segment file left');
  t.same(await shelvesOf(svc.rt, moved.s.spaceId, null), [], 'nor its list');
});
