/**
 * The journal's old days in history (docs/architecture.md, "Journal layout"): each Paris day older than
 * ARCHIVE_AFTER_DAYS moves from Redis into one document of the blob store, and list_events answers as
 * before, by day and by object, pages and cursors across the boundary; lines written since read first;
 * a worker dying between the document and Redis's drop loses nothing and the next visit finishes;
 * erasure leaves no document; another space reads none. With an injected clock, on the file store and
 * (`npm run test:s3`) S3, on one Redis and (`npm run test:cluster`) the Cluster.
 */
import t from 'tap';
import { receiveInbound } from '../../actors/inbound.js';
import { visitSpace } from '../../actors/history.js';
import { moveJournalDays } from '../../actors/journal-history.js';
import { eraseSpace } from '../../actors/closure.js';
import { sweepOrphanBlobs } from '../../actors/attachments.js';
import { blobKey } from '../../src/blobs/store.js';
import { encodeTime } from '../../src/ids.js';
import { spaceKeys } from '../../src/redis/keys.js';
import { parisDay } from '../../src/texts.js';
import { mailFrom } from '../helpers/mail.js';
import { recipient, sender, type Sender } from '../helpers/outbound.js';
import { DAY_MS, startHistoryService } from '../helpers/history.js';

t.setTimeout(120_000);
const { clock, svc, deliverAll } = await startHistoryService('2026-03-02T08:00:00.000Z');

const receive = (s: Sender, from: string, subject: string, text: string) =>
  receiveInbound(svc.rt, s.spaceId, { id: s.inboxId, address: s.address }, mailFrom(from, subject, text));

/** Every page of a list_events query at this limit: its events and its cursor, walked to the end. */
async function pages(s: Sender, query: Record<string, unknown>, limit: number, apiKey = s.apiKey) {
  const walked: { events: unknown[]; next: string | null }[] = [];
  let cursor: string | undefined;
  do {
    const res = await svc.call(apiKey, 'list_events', { ...query, limit, ...(cursor ? { cursor } : {}) });
    if (res.status !== 200) throw new Error(JSON.stringify(res.body.error));
    walked.push({ events: res.body.events, next: res.body.next_cursor });
    cursor = res.body.next_cursor ?? undefined;
  } while (cursor && walked.length < 500);
  return walked;
}

/** Three Paris days of activity: mail received from two contacts, our replies, an audience. */
async function activity(s: Sender) {
  const claire = recipient('claire');
  const paul = recipient('paul');
  const days: string[] = [];
  const threads: string[] = [];
  const messages: string[] = [];
  let audienceId = '';
  for (let d = 0; d < 3; d++) {
    days.push(parisDay(clock.now()));
    const first = await receive(s, claire, `Commande ${d}`, `Bonjour, la commande ${d}.`);
    threads.push(first.thread_id);
    messages.push(first.message_id);
    clock.advance(600_000);
    const other = await receive(s, paul, `Question ${d}`, 'Une question.');
    messages.push(other.message_id);
    clock.advance(600_000);
    const reply = await svc.call(s.apiKey, 'reply_to_thread', { thread_id: first.thread_id, text: 'Bien reçu.' });
    t.equal(reply.status, 200, JSON.stringify(reply.body.error));
    messages.push(reply.body.message.id);
    await deliverAll(s);
    if (d === 1) {
      const created = await svc.call(s.apiKey, 'create_audience', { name: 'Clients' });
      audienceId = created.body.audience.id;
      await svc.call(s.apiKey, 'add_contacts', { audience_id: audienceId, contacts: [{ email: claire }] });
    }
    clock.advance(DAY_MS);
  }
  // A key of the inbox alone: a line shows when its inbox, put back from its message, is the key's.
  const inboxKey = (await svc.key(s.apiKey, { name: 'ventes', permissions: ['read'], inbox_ids: [s.inboxId] })).apiKey;
  return { claire, paul, days, threads, messages, audienceId, inboxKey };
}

type Activity = Awaited<ReturnType<typeof activity>>;

/** The queries list_events answers for this activity: each day, each kind of object. */
const queries = (s: Sender, a: Activity): Record<string, unknown>[] => [
  ...a.days.map((day) => ({ day })),
  { inbox_id: s.inboxId },
  { inbox_id: s.inboxId, day: a.days[1] },
  ...a.threads.map((thread_id) => ({ thread_id })),
  ...a.messages.map((message_id) => ({ message_id })),
  { contact: a.claire },
  { contact: a.paul.toUpperCase() },
  { audience_id: a.audienceId },
  { domain: s.domain },
];

/** Every query walked at limits 1, 3 and 50. */
async function readings(s: Sender, a: Activity) {
  const all = [];
  for (const query of queries(s, a))
    for (const limit of [1, 3, 50]) all.push({ query, limit, pages: await pages(s, query, limit) });
  for (const day of a.days) all.push({ query: { day }, limit: 2, pages: await pages(s, { day }, 2, a.inboxKey) });
  return all;
}

t.test('old days move into the blob store and list_events reads the same', async (t) => {
  const s = await sender(svc);
  const a = await activity(s);
  const keys = spaceKeys(s.spaceId);
  const before = await readings(s, a);
  t.ok(
    before.every(({ pages }) => pages[0]!.events.length > 0),
    'every query has lines',
  );
  const lines = await svc.rt.redis.hlen(keys.journal);

  clock.advance(31 * DAY_MS);
  await visitSpace(svc.rt, s.spaceId, 100);
  const documents = await svc.rt.redis.hgetall(keys.journalDays);
  t.ok(documents.to, 'the moved days end');
  t.ok(Object.keys(documents).length >= 4, `a document per day with lines (${Object.keys(documents).join(' ')})`);
  t.equal(await svc.rt.redis.hlen(keys.journal), 0, `its ${lines} lines left the journal hash`);
  const movedFrom = encodeTime(Number(documents.to));
  const left = Object.entries(await svc.rt.redis.hgetall(keys.journalIndex)).flatMap(([field, value]) => {
    const bar = value.indexOf('|');
    const head = field.includes('#') ? 20 : bar + 1 + (value.startsWith('0|') ? 0 : 20);
    return (value.slice(head).match(/.{20}/g) ?? []).filter((body) => body < movedFrom);
  });
  t.same(left, [], 'no index list holds a moved line');
  t.same(await readings(s, a), before, 'every page, line and cursor the same');
  t.equal((await moveJournalDays(svc.rt, s.spaceId, clock.now())) > clock.now(), true, 'nothing left to move now');

  // Lines written since come first, then history's, pages walking across the boundary.
  const late = await receive(s, a.claire, 'Nouvelle commande', 'Encore une.');
  for (const query of [{ contact: a.claire }, { inbox_id: s.inboxId }]) {
    const old = before.find((r) => JSON.stringify(r.query) === JSON.stringify(query) && r.limit === 50)!;
    const oldLines = old.pages.flatMap((p) => p.events);
    for (const limit of [1, 2, 7]) {
      const walked = (await pages(s, query, limit)).flatMap((p) => p.events) as { id: string; message_id?: string }[];
      t.equal(walked[0]!.message_id, late.message_id, 'the new lines first');
      t.ok(walked.length > oldLines.length);
      t.same(
        walked.slice(walked.length - oldLines.length),
        oldLines,
        `then every old line (${JSON.stringify(query)}, limit ${limit})`,
      );
    }
  }
});

t.test('a worker dying between the document and the drop loses no line; the next visit finishes', async (t) => {
  const s = await sender(svc);
  const a = await activity(s);
  const keys = spaceKeys(s.spaceId);
  const before = await readings(s, a);
  clock.advance(31 * DAY_MS);
  const blobs = svc.rt.ports.blobs;
  let orphan = '';
  const dying = {
    ...svc.rt,
    ports: {
      ...svc.rt.ports,
      blobs: {
        ...blobs,
        async put(spaceId: string, bytes: Uint8Array) {
          orphan = (await blobs.put(spaceId, bytes)).key;
          throw new Error('killed after the put');
        },
      },
    },
  };
  const listed = (await blobs.list(s.spaceId)).length;
  await t.rejects(moveJournalDays(dying, s.spaceId, clock.now()), /killed/);
  t.equal((await blobs.list(s.spaceId)).length, listed + 1, 'a document nothing names');
  t.equal(await svc.rt.redis.exists(keys.journalDays), 0, 'no day moved');
  t.same(await readings(s, a), before, 'every line read once, from Redis');
  // The next visit, a minute on: its document is written anew.
  clock.advance(60_000);
  await visitSpace(svc.rt, s.spaceId, 100);
  t.ok(await svc.rt.redis.hget(keys.journalDays, 'to'));
  t.same(await readings(s, a), before, 'and the same from history');
  // The blobs' times are the machine's, the service's clock is another: every blob written so far is old.
  await sweepOrphanBlobs(svc.rt, clock.now() - Date.now() - 60_000);
  const named = Object.entries(await svc.rt.redis.hgetall(keys.journalDays)).filter(([day]) => day !== 'to');
  const left = new Set((await blobs.list(s.spaceId)).map((blob) => blob.key));
  t.ok(
    named.every(([, sha]) => left.has(blobKey(s.spaceId, Buffer.from(sha, 'base64url').toString('hex')))),
    'the sweep keeps the documents journal:days names',
  );
  t.notOk(left.has(orphan), 'and removes the one nothing names');
  t.same(await readings(s, a), before);
});

t.test(
  'long lists: sealed buckets wholly moved keep their bound, the one astride the boundary its later lines',
  async (t) => {
    const s = await sender(svc);
    const contact = recipient('bavard');
    const keys = spaceKeys(s.spaceId);
    // 90 lines a day in `* `, the inbox's and the contact's lists: each seals a bucket of 64 a day or more.
    const days: string[] = [];
    for (let d = 0; d < 2; d++) {
      days.push(parisDay(clock.now()));
      for (let i = 0; i < 90; i++) {
        await receive(s, contact, `Sujet ${d}-${i}`, 'Bonjour.');
        clock.advance(60_000);
      }
      clock.advance(DAY_MS);
    }
    const query = [{ day: days[0] }, { day: days[1] }, { inbox_id: s.inboxId }, { contact }];
    const read = async () => {
      const all = [];
      for (const q of query) for (const limit of [7, 64, 200]) all.push(await pages(s, q, limit));
      return all;
    };
    const before = await read();
    t.ok(Object.keys(await svc.rt.redis.hgetall(keys.journalIndex)).some((field) => field.endsWith('#2')));
    // The first day moves, the second stays: the cutoff falls between them.
    clock.advance(29 * DAY_MS);
    await visitSpace(svc.rt, s.spaceId, 1000);
    const documents = await svc.rt.redis.hgetall(keys.journalDays);
    t.ok(documents[days[0]!] && !documents[days[1]!], 'the first day alone moved');
    t.ok((await svc.rt.redis.hlen(keys.journal)) >= 90, 'the second day stays');
    const index = await svc.rt.redis.hgetall(keys.journalIndex);
    const movedFrom = encodeTime(Number(documents.to));
    // A list's sealed buckets wholly moved go, but for its last, which keeps its bound alone.
    for (const prefix of ['* ', s.inboxId, `c:${contact} `]) {
      const sealed = Object.keys(index).filter((field) => field.startsWith(`${prefix}#`));
      const last = Number(index[prefix]!.split('|')[0]);
      t.ok(sealed.length > 0 && sealed.length < last, `${prefix}: ${sealed.join(', ')} of ${last}`);
      for (const field of sealed)
        t.ok(index[field]!.length === 20 ? field === `${prefix}#${last}` : index[field]!.slice(20, 30) >= movedFrom);
    }
    t.same(await read(), before, 'the same pages across the boundary');
    clock.advance(2 * DAY_MS);
    await visitSpace(svc.rt, s.spaceId, 1000);
    t.equal(await svc.rt.redis.hlen(keys.journal), 0, 'then the second day');
    t.same(await read(), before);
  },
);

t.test('a page opens at most 31 day documents, then answers a cursor', async (t) => {
  const s = await sender(svc);
  const contact = recipient('fidele');
  for (let d = 0; d < 35; d++) {
    await receive(s, contact, `Jour ${d}`, 'Bonjour.');
    clock.advance(DAY_MS);
  }
  const whole = (await pages(s, { contact }, 200))[0]!;
  t.equal(whole.events.length, 35);
  t.equal(whole.next, null);
  clock.advance(31 * DAY_MS);
  t.equal(await moveJournalDays(svc.rt, s.spaceId, clock.now()), clock.now(), 'more to move at once');
  await visitSpace(svc.rt, s.spaceId, 100);
  const walked = await pages(s, { contact }, 200);
  t.equal(walked.length, 2);
  t.equal(walked[0]!.events.length, 31, 'one line a day of 31 documents');
  t.ok(walked[0]!.next);
  t.same(
    walked.flatMap((p) => p.events),
    whole.events,
  );
});

t.test('erasure leaves no journal document; another space reads none', async (t) => {
  const s = await sender(svc);
  const other = await sender(svc);
  const a = await activity(s);
  clock.advance(31 * DAY_MS);
  await visitSpace(svc.rt, s.spaceId, 100);
  const keys = spaceKeys(s.spaceId);
  t.ok(await svc.rt.redis.hget(keys.journalDays, 'to'));
  for (const query of [{ thread_id: a.threads[0] }, { contact: a.claire }, { day: a.days[0] }]) {
    const res = await svc.call(other.apiKey, 'list_events', query);
    t.same(
      res.body.events.filter((e: { id: string }) => e.id && JSON.stringify(e).includes(a.claire)),
      [],
      `${JSON.stringify(query)}: none of the other space's lines`,
    );
  }
  const documents = Object.entries(await svc.rt.redis.hgetall(keys.journalDays)).filter(([day]) => day !== 'to');
  t.ok(documents.length > 0);
  const closesAt = clock.now();
  await svc.rt.redis.hset(keys.space, 'closes_at', String(closesAt));
  t.equal(await eraseSpace(svc.rt, s.spaceId, closesAt), true);
  t.same(await svc.rt.ports.blobs.list(s.spaceId), []);
  t.equal(await svc.rt.redis.exists(keys.journalDays), 0);
  t.equal(await svc.rt.redis.exists(keys.journal), 0);
});
