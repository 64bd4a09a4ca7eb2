/**
 * History (docs/architecture.md, "History"): a thread idle for ARCHIVE_AFTER_DAYS moves from Redis to
 * the blob store and reads the same; new mail, a reply or a report brings it back; a thread with an
 * unfinished message stays; a worker killed between the document's write and Redis's drop leaves the
 * thread readable and the next visit finishes; erasure leaves no document. With an injected clock, on
 * the file store and (`npm run test:s3`) S3, on one Redis and (`npm run test:cluster`) the Cluster.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { receiveInbound } from '../../actors/inbound.js';
import { bringBack, moveThread, visitSpace } from '../../actors/history.js';
import { moveDueThreads } from '../../actors/history-index.js';
import { readLayout } from '../../actors/history-names.js';
import { readMessages, readThread, readThreads } from '../../actors/stored-records.js';
import { eraseSpace } from '../../actors/closure.js';
import { sweepOrphanBlobs } from '../../actors/attachments.js';
import { blobKey } from '../../src/blobs/store.js';
import { authenticate, createSpace } from '../../actors/space.js';
import { createInbox } from '../../actors/inbox.js';
import { composeRuntime } from '../../src/cli/compose.js';
import { createRuntime } from '../../src/runtime.js';
import { startLocalRedis } from '../../src/redis/local.js';
import { spaceKeys } from '../../src/redis/keys.js';
import { routeOf } from '../../src/smtp/routing.js';
import { verpReturnPath } from '../../src/delivery/mime.js';
import { CHILD_EXEC_ARGV } from '../helpers/child.js';
import { mailFrom, receivedMail } from '../helpers/mail.js';
import { recipient, send, sender, type Sender } from '../helpers/outbound.js';
import { testRedisTarget } from '../helpers/redis.js';
import { DAY_MS, historyRef, startHistoryService } from '../helpers/history.js';

t.setTimeout(120_000);
const { clock, svc, deliverAll } = await startHistoryService('2026-06-01T08:00:00.000Z');

/** A conversation: our first message (sent), their reply with a file, our answer (sent). */
async function conversation(s: Sender) {
  const to = recipient('historique');
  const first = await send(svc, s, { to, subject: 'Proposition de printemps', text: 'Bonjour,\nune proposition.' });
  t.equal(first.status, 200, JSON.stringify(first.body.error));
  await deliverAll(s);
  const threadId: string = first.body.message.thread_id;
  const header = (await svc.call(s.apiKey, 'get_message', { message_id: first.body.message.id })).body.headers
    .message_id;
  clock.advance(3_600_000);
  const reply = await receiveInbound(
    svc.rt,
    s.spaceId,
    { id: s.inboxId, address: s.address },
    receivedMail({
      from: to,
      from_name: 'Claire Dupré',
      subject: 'Re: Proposition de printemps',
      // Over 2 KB, its words past the first 160 characters: its text is a blob of its own, its snippet an excerpt.
      text: `Volontiers, voici nos chiffres.\n${'Le détail suit, ligne par ligne. '.repeat(80)}Des chiffres éléphantesques.`,
      message_id_header: `<reponse-${threadId}@destinataire.test>`,
      in_reply_to: header,
      references: [header],
      attachments: [
        {
          filename: 'chiffres.csv',
          content_type: 'text/csv',
          content: Buffer.from('a;b\n1;2\n'),
          inline: false,
          content_id: null,
        },
      ],
    }),
  );
  t.equal(reply.thread_id, threadId);
  clock.advance(3_600_000);
  const answer = await svc.call(s.apiKey, 'reply_to_thread', { thread_id: threadId, text: 'Merci, à bientôt.' });
  t.equal(answer.status, 200, JSON.stringify(answer.body.error));
  await deliverAll(s);
  return {
    threadId,
    to,
    header,
    received: reply.message_id,
    ids: [first.body.message.id, reply.message_id, answer.body.message.id],
  };
}

/** Everything the tools and the store answer about a thread: compared before and after a move. */
async function readings(s: Sender, threadId: string, ids: string[]) {
  const thread = (await svc.call(s.apiKey, 'get_thread', { thread_id: threadId })).body;
  const messages = await Promise.all(
    ids.map(async (id) => (await svc.call(s.apiKey, 'get_message', { message_id: id })).body),
  );
  const attachments = await Promise.all(
    messages.flatMap((m) =>
      m.attachments.map(
        async (a: { id: string }) =>
          (await svc.call(s.apiKey, 'get_attachment', { message_id: m.id, attachment_id: a.id })).body,
      ),
    ),
  );
  const list = (await svc.call(s.apiKey, 'list_threads', {})).body;
  const search = (await svc.call(s.apiKey, 'search_threads', { query: 'elephantesques' })).body;
  const journal = (await svc.call(s.apiKey, 'list_events', { thread_id: threadId })).body;
  const events = (await svc.call(s.apiKey, 'event_feed', {})).body;
  const stored = await readMessages(svc.rt, s.spaceId, ids);
  return { thread, messages, attachments, list, search, journal, events, stored };
}

t.test('a thread idle past ARCHIVE_AFTER_DAYS moves into history and reads the same', async (t) => {
  const s = await sender(svc);
  const { threadId, ids } = await conversation(s);
  t.equal(await moveThread(svc.rt, s.spaceId, threadId), 'stale', 'not idle yet: it stays');
  clock.advance(31 * DAY_MS);
  const before = await readings(s, threadId, ids);
  t.equal(before.thread.messages.length, 3);
  t.equal(before.attachments.length, 1);
  t.equal(before.search.items.length, 1, 'a word of the received message finds the thread');
  t.match(before.search.items[0].snippet, /^….* éléphantesques\.$/, 'cut around the word found');
  t.ok(before.journal.events.length >= 3 && before.events.events.length >= 3, 'its journal lines and events');
  t.equal(await moveThread(svc.rt, s.spaceId, threadId), 'moved');
  const keys = spaceKeys(s.spaceId);
  t.ok(await historyRef(svc.rt, s.spaceId, threadId), 'the thread names its document');
  for (const id of ids) t.equal(await svc.rt.redis.exists(keys.message(id)), 0, `${id} left Redis`);
  t.equal(await svc.rt.redis.hlen(keys.messageIds), 0, 'the received Message-ID left the space hash');
  t.equal(await svc.rt.redis.exists(keys.thread(threadId)), 0, 'its hash left Redis: its row is in the name buckets');
  t.same(
    (await readLayout(svc.rt, s.spaceId)).entries,
    6,
    'three message ids, one Message-ID and the document named; the row',
  );
  t.equal(await svc.rt.redis.hexists(keys.thread(threadId), 'docs'), 0, 'its words left the live search index');
  t.equal(await svc.rt.redis.hlen(keys.searchSegments), 1, 'for a search segment of its inbox');

  const after = await readings(s, threadId, ids);
  t.same(after, before, 'every tool answers the same, every stored field the same');
});

t.test(
  'mail on a thread in history brings it back: a reply months later, our reply, a bounce; a classification too',
  async (t) => {
    const s = await sender(svc);
    const { threadId, to, header, ids } = await conversation(s);
    clock.advance(120 * DAY_MS);
    t.equal(await moveThread(svc.rt, s.spaceId, threadId), 'moved');

    const late = await receiveInbound(
      svc.rt,
      s.spaceId,
      { id: s.inboxId, address: s.address },
      mailFrom(to, 'Re: Proposition de printemps', 'Je reviens vers vous.', {
        in_reply_to: header,
        references: [header],
      }),
    );
    t.equal(late.thread_id, threadId, 'threaded onto the thread in history by its Message-ID');
    const keys = spaceKeys(s.spaceId);
    t.equal(await historyRef(svc.rt, s.spaceId, threadId), null, 'back in Redis');
    const thread = (await svc.call(s.apiKey, 'get_thread', { thread_id: threadId })).body;
    t.same(
      thread.messages.map((m: { id: string }) => m.id),
      [...ids, late.message_id],
    );
    t.equal(thread.messages[3].in_reply_to_id, ids[0], 'it answers the message it cites');

    // Back into history at the next visit past the delay, then our own reply brings it back.
    clock.advance(31 * DAY_MS);
    t.equal((await visitSpace(svc.rt, s.spaceId, 100)).moved, 1);
    const ours = await svc.call(s.apiKey, 'reply_to_thread', { thread_id: threadId, text: 'Avec plaisir.' });
    t.equal(ours.status, 200, JSON.stringify(ours.body.error));
    t.equal(await historyRef(svc.rt, s.spaceId, threadId), null);
    await deliverAll(s);
    t.equal((await svc.call(s.apiKey, 'get_thread', { thread_id: threadId })).body.messages.length, 5);

    // A bounce names a message by its return path: the thread comes back so that the report is written.
    clock.advance(31 * DAY_MS);
    t.equal((await visitSpace(svc.rt, s.spaceId, 100)).moved, 1);
    const route = await routeOf(svc.rt, verpReturnPath(s.spaceId, ids[0], s.domain));
    t.same(route, { kind: 'report', space_id: s.spaceId, message_id: ids[0] });
    t.equal(await historyRef(svc.rt, s.spaceId, threadId), null);
    t.equal(await svc.rt.redis.sismember(keys.historyWaiting, threadId), 1, 'looked at again by the next visit');
    t.equal((await visitSpace(svc.rt, s.spaceId, 100)).moved, 1, 'and moved back, nothing new on it');

    // A classification brings it back too; its labels go into history with its row at the next visit.
    const classified = await svc.call(s.apiKey, 'classify_thread', {
      thread_id: threadId,
      labels: ['devis'],
      read: false,
    });
    t.equal(classified.status, 200, JSON.stringify(classified.body.error));
    t.same(classified.body.thread.labels, ['devis']);
    t.equal(await historyRef(svc.rt, s.spaceId, threadId), null, 'back in Redis to be classified');
    t.equal((await visitSpace(svc.rt, s.spaceId, 100)).moved, 1, 'moved again at the next visit');
    const labelled = (await svc.call(s.apiKey, 'list_threads', { label: 'devis', unread: true })).body;
    t.same(
      labelled.items.map((th: { id: string; labels: string[] }) => [th.id, th.labels]),
      [[threadId, ['devis']]],
      'its row in history keeps the classification',
    );
  },
);

t.test('the blob sweep keeps a document while its thread is in history, and removes it once back', async (t) => {
  const s = await sender(svc);
  const { threadId, ids } = await conversation(s);
  clock.advance(40 * DAY_MS);
  t.equal(await moveThread(svc.rt, s.spaceId, threadId), 'moved');
  const keys = spaceKeys(s.spaceId);
  const ref = (await historyRef(svc.rt, s.spaceId, threadId))!;
  const documentKey = blobKey(s.spaceId, Buffer.from(ref, 'base64url').toString('hex'));
  t.equal(await svc.rt.redis.sismember(keys.blobs, ref), 0, 'not in the blob set: its name keeps it');
  // The blobs' times are the machine's, the service's clock is another: every blob written so far is old.
  const everyBlobOld = clock.now() - Date.now() - 60_000;
  await sweepOrphanBlobs(svc.rt, everyBlobOld);
  t.ok(await svc.rt.ports.blobs.get(documentKey), 'kept by the sweep');
  t.equal((await svc.call(s.apiKey, 'get_thread', { thread_id: threadId })).body.messages.length, ids.length);
  await bringBack(svc.rt, s.spaceId, threadId);
  await sweepOrphanBlobs(svc.rt, everyBlobOld);
  t.equal(await svc.rt.ports.blobs.get(documentKey), null, 'removed once the thread came back');
  t.equal((await svc.call(s.apiKey, 'get_thread', { thread_id: threadId })).body.messages.length, ids.length);
});

t.test('a thread with a queued or draft message stays in Redis until it has left', async (t) => {
  const s = await sender(svc);
  const { threadId } = await conversation(s);
  const later = await svc.call(s.apiKey, 'reply_to_thread', {
    thread_id: threadId,
    text: 'Dans deux mois.',
    send_after: new Date(clock.now() + 60 * DAY_MS).toISOString(),
  });
  t.equal(later.status, 200, JSON.stringify(later.body.error));
  clock.advance(40 * DAY_MS);
  t.equal(await moveThread(svc.rt, s.spaceId, threadId), 'waiting', 'idle, but its reply waits to leave');
  t.equal((await visitSpace(svc.rt, s.spaceId, 100)).moved, 0);
  t.equal(await svc.rt.redis.sismember(spaceKeys(s.spaceId).historyWaiting, threadId), 1, 'looked at again each visit');
  clock.advance(21 * DAY_MS);
  await deliverAll(s);
  t.equal(await moveThread(svc.rt, s.spaceId, threadId), 'moved', 'once it left');
  t.equal((await visitSpace(svc.rt, s.spaceId, 100)).moved, 0);
  t.equal(await svc.rt.redis.scard(spaceKeys(s.spaceId).historyWaiting), 0, 'no longer waiting');
});

t.test('the mover visits due spaces only, and a space with nothing idle costs one look per period', async (t) => {
  // On a Redis of its own: the history index spans every space of a store, and this clock runs far
  // ahead of the other files' (on a shared Cluster their spaces would be due too).
  const dir = mkdtempSync(join(tmpdir(), 'mbx-history-'));
  const local = await startLocalRedis(dir, { persist: false });
  const rt = composeRuntime(
    createRuntime({ ...svc.rt.config, redisUrl: local.url, redisClusterNodes: null }, { clock }),
  );
  t.teardown(async () => {
    rt.redis.disconnect();
    await local.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const space = await createSpace(rt, { human: 'humain@exemple.fr', verified: true });
  const access = await authenticate(rt, space.api_key);
  const inbox = await createInbox(rt, access, {
    username: 'seul',
    domain: rt.config.commonDomain,
    shared: true,
    display_name: 'Seul',
  });
  const received = await receiveInbound(
    rt,
    space.space_id,
    { id: inbox.id, address: inbox.address },
    mailFrom(recipient('seul'), 'Une question', 'Bonjour'),
  );
  t.equal(await moveDueThreads(rt, 1000), 0, 'not due yet');
  clock.advance(31 * DAY_MS);
  t.equal(await moveDueThreads(rt, 1000), 1, 'the idle thread moved');
  t.ok(await historyRef(rt, space.space_id, received.thread_id));
  t.equal(
    await rt.redis.xlen(spaceKeys(space.space_id).events),
    0,
    'its events past their 30 days, trimmed by the visit',
  );
  t.equal(await moveDueThreads(rt, 1000), 0, 'nothing due until the next thread may turn idle');
});

t.test('names grow into more buckets, every message still found', async (t) => {
  const s = await sender(svc);
  const threads: { threadId: string; messageId: string }[] = [];
  for (let i = 0; i < 150; i++) {
    const received = await receiveInbound(
      svc.rt,
      s.spaceId,
      { id: s.inboxId, address: s.address },
      mailFrom(recipient(`nombreux${i}`), `Sujet ${i}`, `Message ${i}`, {
        message_id_header: `<n${i}@destinataire.test>`,
      }),
    );
    threads.push({ threadId: received.thread_id, messageId: received.message_id });
  }
  clock.advance(31 * DAY_MS);
  t.equal((await visitSpace(svc.rt, s.spaceId, 1000)).moved, 150);
  const layout = await readLayout(svc.rt, s.spaceId);
  t.equal(layout.entries, 600, 'a message id, a Message-ID, a document and the row a thread');
  t.ok(layout.buckets >= 8 && layout.split === null, `${layout.buckets} buckets`);
  const found = await readMessages(
    svc.rt,
    s.spaceId,
    threads.map((th) => th.messageId),
  );
  t.same(
    found.map((m) => m.thread_id),
    threads.map((th) => th.threadId),
  );
  const rows = await readThreads(
    svc.rt,
    s.spaceId,
    threads.map((th) => th.threadId),
  );
  t.ok(
    rows.every((row, i) => row?.history && row.subject === `Sujet ${i}`),
    'every row found where the splits moved it',
  );
  await bringBack(svc.rt, s.spaceId, threads[0]!.threadId);
  t.equal((await readLayout(svc.rt, s.spaceId)).entries, 596, 'its three names and its row left');
  t.equal((await readThread(svc.rt, s.spaceId, threads[0]!.threadId))?.history, undefined, 'its hash back');
});

t.test("another space's message in history is not_found", async (t) => {
  const s = await sender(svc);
  const other = await sender(svc);
  const { threadId, ids } = await conversation(s);
  clock.advance(31 * DAY_MS);
  t.equal(await moveThread(svc.rt, s.spaceId, threadId), 'moved');
  const message = await svc.call(other.apiKey, 'get_message', { message_id: ids[0] });
  t.equal(message.status, 404);
  t.equal(message.body.error.code, 'not_found');
  const thread = await svc.call(other.apiKey, 'get_thread', { thread_id: threadId });
  t.equal(thread.body.error.code, 'not_found');
  const classified = await svc.call(other.apiKey, 'classify_thread', { thread_id: threadId, labels: ['vu'] });
  t.equal(classified.body.error.code, 'not_found');
  t.ok(await historyRef(svc.rt, s.spaceId, threadId), 'still in history');
});

t.test('a worker killed between the document and the drop: the thread reads, the next visit moves it', async (t) => {
  const s = await sender(svc);
  const { threadId, ids } = await conversation(s);
  clock.advance(31 * DAY_MS);
  const before = await readings(s, threadId, ids);
  t.equal(await killedMove(s, threadId), 'SIGKILL');
  t.equal(await historyRef(svc.rt, s.spaceId, threadId), null, 'still in Redis');
  t.same(await readings(s, threadId, ids), before, 'readable as before');
  t.equal(await moveThread(svc.rt, s.spaceId, threadId), 'moved', 'the next run finishes the move');
  t.same(await readings(s, threadId, ids), before);
});

t.test('erasure leaves no history document', async (t) => {
  const s = await sender(svc);
  const { threadId } = await conversation(s);
  clock.advance(31 * DAY_MS);
  t.equal(await moveThread(svc.rt, s.spaceId, threadId), 'moved');
  t.ok((await svc.rt.ports.blobs.list(s.spaceId)).length > 0);
  const closesAt = clock.now();
  await svc.rt.redis.hset(spaceKeys(s.spaceId).space, 'closes_at', String(closesAt));
  t.equal(await eraseSpace(svc.rt, s.spaceId, closesAt), true);
  t.same(await svc.rt.ports.blobs.list(s.spaceId), []);
  t.equal(await svc.rt.redis.exists(spaceKeys(s.spaceId).history), 0);
});

const target = await testRedisTarget();
const child = fileURLToPath(new URL('../helpers/history-child.ts', import.meta.url));

/** Runs a worker that writes the thread's document and dies before Redis's drop; answers the signal it died of. */
function killedMove(s: Sender, threadId: string): Promise<string | null> {
  const choice = svc.rt.config.blobStore;
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, [...CHILD_EXEC_ARGV, child], {
      env: {
        ...process.env,
        ...(choice.kind === 'files'
          ? { MAILBOX_DATA_DIR: svc.rt.config.dataDir }
          : { BLOB_STORE: `s3://${choice.bucket}/${choice.prefix}` }),
        LOG_LEVEL: 'error',
        CHILD_REDIS_URL: target.url ?? '',
        REDIS_CLUSTER_NODES: target.clusterNodes?.map((n) => `${n.host}:${n.port}`).join(',') ?? '',
        CHILD_SPACE: s.spaceId,
        CHILD_THREAD: threadId,
        CHILD_NOW: String(clock.now()),
      },
      stdio: 'inherit',
    });
    proc.on('exit', (_code, signal) => resolve(signal));
  });
}
