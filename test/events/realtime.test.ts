/**
 * The realtime socket GET /v1/events/ws in one front end: replay from event_feed's cursor then live
 * push with a next_cursor each, the same envelopes as the feed; auth on the upgrade or by message
 * (refusals 4401, the auth timeout on a short real timer), subscribe's refusals, a revoked key's
 * sockets closed with 4001, a live client that stops reading closed with 4000 and losing nothing, a
 * replay held to the pace of a client that does not read, one reader per space, and a key
 * restricted to inboxes. The 1000-event resume across two front ends is test/events/realtime-resume.test.ts.
 */
import { randomBytes } from 'node:crypto';
import t from 'tap';
import { resumeInbox, suspendInbox } from '../../actors/inbox.js';
import { encodeCursor } from '../../src/cursor.js';
import { startService } from '../helpers/service.js';
import { openSocket, type SocketClient } from '../helpers/socket.js';

const AUTH_TIMEOUT_MS = 300;
const MAX_BUFFERED_BYTES = 64 * 1024;
const svc = await startService({
  env: { WS_AUTH_TIMEOUT_MS: String(AUTH_TIMEOUT_MS), WS_MAX_BUFFERED_BYTES: String(MAX_BUFFERED_BYTES) },
});

async function inbox(apiKey: string): Promise<string> {
  const res = await svc.call(apiKey, 'create_inbox', {
    username: `boite-${randomBytes(3).toString('hex')}`,
    display_name: 'Boîte',
  });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.id;
}

/** One real event: the circuit breaker suspends the inbox (the resume writes none). */
async function emit(spaceId: string, inboxId: string, reason: string): Promise<void> {
  await suspendInbox(svc.rt, spaceId, inboxId, reason);
  await resumeInbox(svc.rt, spaceId, inboxId);
}

const feed = (apiKey: string, body: Record<string, unknown> = {}) => svc.call(apiKey, 'event_feed', body);

async function subscribed(key: string, after?: string): Promise<SocketClient> {
  const socket = await openSocket(svc.url, key);
  t.teardown(() => socket.ws.terminate());
  socket.send(after === undefined ? { type: 'subscribe' } : { type: 'subscribe', after });
  return socket;
}

/** Reads `count` event messages, failing on anything else. */
async function events(socket: SocketClient, count: number): Promise<any[]> {
  const read: any[] = [];
  while (read.length < count) {
    const message = await socket.next();
    if (message.type !== 'event') throw new Error(`expected an event, got ${JSON.stringify(message)}`);
    read.push(message);
  }
  return read;
}

t.test('replays from the feed cursor, then pushes live; the same envelopes and cursors as event_feed', async (t) => {
  const { apiKey, spaceId } = await svc.space({ plan: 'pro' });
  const box = await inbox(apiKey);
  await emit(spaceId, box, 'avant 1');
  const start = await feed(apiKey, { limit: 1 });
  await emit(spaceId, box, 'avant 2');

  const socket = await subscribed(apiKey, start.body.next_cursor);
  const [replayed] = await events(socket, 1);
  t.equal(replayed.event.data.reason, 'avant 2', 'replayed from the cursor: the first event is not sent again');
  const ready = await socket.next();
  t.equal(ready.type, 'ready');
  t.equal(ready.next_cursor, replayed.next_cursor, 'ready names where the replay ended');

  await emit(spaceId, box, 'direct 1');
  await emit(spaceId, box, 'direct 2');
  const live = await events(socket, 2);
  t.same(
    live.map((m) => m.event.data.reason),
    ['direct 1', 'direct 2'],
    'live, in emission order',
  );

  const fromFeed = await feed(apiKey, { after: start.body.next_cursor });
  t.same(
    [replayed, ...live].map((m) => m.event),
    fromFeed.body.events,
    'the envelopes event_feed gives, ids included',
  );
  const after = await feed(apiKey, { after: live[0].next_cursor });
  t.same(
    after.body.events.map((e: any) => e.data.reason),
    ['direct 2'],
    'each next_cursor resumes event_feed right after its event',
  );
  t.equal(after.body.next_cursor, live[1].next_cursor, 'and the last one is the feed cursor at the end');

  socket.send({ type: 'ping' });
  t.same(await socket.next(), { type: 'pong' });
});

t.test(
  'without after: from the oldest kept event; an empty space answers ready with the feed start cursor',
  async (t) => {
    const { apiKey, spaceId } = await svc.space({ plan: 'pro' });
    const empty = await subscribed(apiKey);
    const ready = await empty.next();
    t.same(ready, { type: 'ready', next_cursor: (await feed(apiKey)).body.next_cursor });
    const box = await inbox(apiKey);
    await emit(spaceId, box, 'un');
    t.equal((await events(empty, 1))[0].event.data.reason, 'un');
    const late = await subscribed(apiKey);
    t.equal((await events(late, 1))[0].event.data.reason, 'un', 'a second socket replays from the start');
    t.equal((await late.next()).type, 'ready');
  },
);

t.test('auth: a bearer on the upgrade or a first auth message; refusals close with 4401', async (t) => {
  const { apiKey } = await svc.space();

  const byMessage = await openSocket(svc.url);
  byMessage.send({ type: 'auth', api_key: apiKey });
  byMessage.send({ type: 'subscribe' });
  t.equal((await byMessage.next()).type, 'ready', 'auth then subscribe, sent at once, are handled in order');
  byMessage.send({ type: 'auth', api_key: apiKey });
  t.match(
    await byMessage.next(),
    { type: 'error', code: 'invalid_argument' },
    'a second auth is refused, the socket stays',
  );
  byMessage.ws.terminate();

  for (const [what, open] of [
    ['a wrong bearer', () => openSocket(svc.url, `${apiKey}x`)],
    ['a bearer of no key', () => openSocket(svc.url, '')],
    [
      'a wrong auth message',
      async () => {
        const socket = await openSocket(svc.url);
        socket.send({ type: 'auth', api_key: 'mbx_faux' });
        return socket;
      },
    ],
    [
      'an auth without key',
      async () => {
        const socket = await openSocket(svc.url);
        socket.send({ type: 'auth' });
        return socket;
      },
    ],
    [
      'a subscribe before auth',
      async () => {
        const socket = await openSocket(svc.url);
        socket.send({ type: 'subscribe' });
        return socket;
      },
    ],
  ] as const) {
    const socket = await open();
    t.match(
      await socket.next(),
      { type: 'error', code: 'unauthorized', message: /Accès refusé/ },
      `${what}: error unauthorized`,
    );
    t.same(await socket.closed, { code: 4401, reason: 'unauthorized' }, `${what}: closed 4401`);
  }

  const silent = await openSocket(svc.url);
  t.match(
    await silent.next(),
    { type: 'error', code: 'unauthorized', message: /aucun message auth/ },
    'no auth in time',
  );
  t.equal((await silent.closed).code, 4401);
  const pinging = await openSocket(svc.url);
  pinging.send({ type: 'ping' });
  t.same(await pinging.next(), { type: 'pong' }, 'ping needs no key');
  t.equal((await pinging.closed).code, 4401, 'but does not hold the socket open without auth');
});

t.test("subscribe's refusals answer an error and leave the socket open", async (t) => {
  const { apiKey } = await svc.space();
  const other = await svc.space();
  const sender = await svc.key(apiKey, { name: 'expéditeur', permissions: ['send'] });
  const foreign = (await feed(other.apiKey)).body.next_cursor;

  const socket = await openSocket(svc.url, apiKey);
  t.teardown(() => socket.ws.terminate());
  for (const [what, message, code, hint] of [
    ['not JSON', 'pas du json', 'invalid_argument', null],
    ['an unknown type', { type: 'publish' }, 'invalid_argument', { parameter: 'type' }],
    ['no type', [1, 2], 'invalid_argument', { parameter: 'type' }],
    ["another space's cursor", { type: 'subscribe', after: foreign }, 'invalid_argument', { parameter: 'after' }],
    ['a forged cursor', { type: 'subscribe', after: 'pas-un-curseur' }, 'invalid_argument', { parameter: 'after' }],
    [
      'a cursor with no stream position',
      { type: 'subscribe', after: encodeCursor(`${other.spaceId}|event_feed`, 'x') },
      'invalid_argument',
      { parameter: 'after' },
    ],
    ['a cursor that is no string', { type: 'subscribe', after: 12 }, 'invalid_argument', { parameter: 'after' }],
  ] as const) {
    socket.send(message);
    const error = await socket.next();
    t.match(error, { type: 'error', code, message: String }, what);
    t.same(error.hint, hint, `${what}: hint`);
  }
  socket.ws.send(Buffer.from('{"type":"ping"}'), { binary: true });
  t.match(await socket.next(), { type: 'error', code: 'invalid_argument', message: /texte/ }, 'a binary message');
  socket.send({ type: 'subscribe' });
  t.equal((await socket.next()).type, 'ready', 'the socket still subscribes after its refusals');
  socket.send({ type: 'subscribe' });
  t.match(await socket.next(), { type: 'error', code: 'invalid_argument', message: /déjà abonné/ }, 'once per socket');

  const noRead = await openSocket(svc.url, sender.apiKey);
  t.teardown(() => noRead.ws.terminate());
  noRead.send({ type: 'subscribe' });
  t.match(await noRead.next(), { type: 'error', code: 'forbidden', message: /permission read/ }, 'a key without read');
});

t.test("a revoked key's sockets close with 4001, others stay", async (t) => {
  const { apiKey, spaceId } = await svc.space({ plan: 'pro' });
  const reader = await svc.key(apiKey, { name: 'lecteur', permissions: ['read'] });
  const doomed = await subscribed(reader.apiKey);
  const idle = await openSocket(svc.url, reader.apiKey);
  const kept = await subscribed(apiKey);
  t.equal((await doomed.next()).type, 'ready');
  t.equal((await kept.next()).type, 'ready');

  const revoked = await svc.call(apiKey, 'revoke_key', { key_id: reader.keyId, confirm: true });
  t.equal(revoked.status, 200);
  const started = Date.now();
  t.match(await doomed.next(), { type: 'error', code: 'unauthorized', message: /révoquée/ });
  t.same(await doomed.closed, { code: 4001, reason: 'key revoked' });
  t.equal((await idle.closed).code, 4001, 'a socket that never subscribed too');
  // The check runs every 500 ms (config.ts); the margin is for a loaded test machine.
  t.ok(Date.now() - started < 1500, `closed ${Date.now() - started} ms after the revocation`);
  await emit(spaceId, await inbox(apiKey), 'encore là');
  t.equal((await events(kept, 1))[0].event.data.reason, 'encore là', "the space's other key keeps its socket");
});

t.test(
  'a client that stops reading is closed with 4000 past the buffer limit, and resumes losing nothing',
  async (t) => {
    const { apiKey, spaceId } = await svc.space({ plan: 'pro' });
    const box = await inbox(apiKey);
    const socket = await subscribed(apiKey);
    t.equal((await socket.next()).type, 'ready');
    socket.ws.pause();
    // Kernel buffers take megabytes on loopback before the server holds anything: big events fill them.
    const bulky = 'x'.repeat(64 * 1024);
    const emitted = 160;
    for (let i = 0; i < emitted; i++) await emit(spaceId, box, `${i} ${bulky}`);
    socket.ws.resume();
    const received: any[] = [];
    for (;;) {
      const message = await socket.next().catch(() => null);
      if (!message) break;
      received.push(message);
    }
    t.same(await socket.closed, { code: 4000, reason: 'resume from your cursor' });
    t.ok(received.length < emitted, `closed after ${received.length} of ${emitted} events`);
    const resumed = await subscribed(apiKey, received.at(-1).next_cursor);
    const rest = await events(resumed, emitted - received.length);
    t.equal((await resumed.next()).type, 'ready');
    t.same(
      [...received, ...rest].map((m) => Number(m.event.data.reason.split(' ')[0])),
      Array.from({ length: emitted }, (_, i) => i),
      'every event exactly once, in order',
    );
  },
);

t.test('a replay goes at the pace of a client that stops reading: it waits, never closes', async (t) => {
  const { apiKey, spaceId } = await svc.space({ plan: 'pro' });
  const box = await inbox(apiKey);
  const bulky = 'x'.repeat(64 * 1024);
  const backlog = 120;
  for (let i = 0; i < backlog; i++) await emit(spaceId, box, `${i} ${bulky}`);
  const socket = await openSocket(svc.url, apiKey);
  t.teardown(() => socket.ws.terminate());
  socket.ws.pause();
  socket.send({ type: 'subscribe' });
  // Long enough for the server to have filled the kernel buffers and its own, were it not waiting.
  await new Promise((resolve) => setTimeout(resolve, 500));
  socket.ws.resume();
  const replayed = await events(socket, backlog);
  t.same(
    replayed.map((m) => Number(m.event.data.reason.split(' ')[0])),
    Array.from({ length: backlog }, (_, i) => i),
    'every event, in order',
  );
  t.equal((await socket.next()).type, 'ready', 'then ready, on the same socket');
});

t.test('a key restricted to inboxes gets their events only; its cursor moves past the others', async (t) => {
  const { apiKey, spaceId } = await svc.space({ plan: 'pro' });
  const [a, b] = [await inbox(apiKey), await inbox(apiKey)];
  const reader = await svc.key(apiKey, { name: 'lecteur-a', permissions: ['read'], inbox_ids: [a] });
  await emit(spaceId, b, 'b1');
  await emit(spaceId, a, 'a1');
  await emit(spaceId, b, 'b2');
  const socket = await subscribed(reader.apiKey);
  const [first] = await events(socket, 1);
  t.equal(first.event.data.reason, 'a1');
  const ready = await socket.next();
  t.equal(ready.type, 'ready');
  t.same(
    (await feed(reader.apiKey, { after: ready.next_cursor })).body.events,
    [],
    'ready is past b2, which it does not see',
  );
  await emit(spaceId, b, 'b3');
  await emit(spaceId, a, 'a2');
  t.same(
    (await events(socket, 1)).map((m) => m.event.data.reason),
    ['a2'],
    'b3 not pushed',
  );
  const other = await svc.space();
  t.match(
    await (async () => {
      const foreign = await openSocket(svc.url, other.apiKey);
      t.teardown(() => foreign.ws.terminate());
      foreign.send({ type: 'subscribe', after: ready.next_cursor });
      return foreign.next();
    })(),
    { type: 'error', code: 'invalid_argument', hint: { parameter: 'after' } },
    "another space's key cannot follow this space",
  );
});

t.test('one blocking reader per space in a front end, whatever its sockets; none once they are gone', async (t) => {
  const gauge = async (name: string) =>
    Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(await (await fetch(`${svc.url}/metrics`)).text())![1]);
  /** The server learns of a client's close a moment after the client: polled, bounded. */
  const settled = async (name: string, expected: number) => {
    for (let i = 0; i < 100 && (await gauge(name)) !== expected; i++) await new Promise((r) => setTimeout(r, 20));
    return gauge(name);
  };
  const { apiKey, spaceId } = await svc.space({ plan: 'pro' });
  const readers = await gauge('mailbox_realtime_readers');
  const sockets = await gauge('mailbox_realtime_sockets');
  const three = await Promise.all(
    [1, 2, 3].map(async () => {
      const socket = await openSocket(svc.url, apiKey);
      socket.send({ type: 'subscribe' });
      t.equal((await socket.next()).type, 'ready');
      return socket;
    }),
  );
  t.equal(await gauge('mailbox_realtime_readers'), readers + 1, 'three sockets of one space, one reader');
  t.equal(await gauge('mailbox_realtime_sockets'), sockets + 3);
  await emit(spaceId, await inbox(apiKey), 'à tous');
  for (const socket of three) t.equal((await events(socket, 1))[0].event.data.reason, 'à tous', 'fanned out to each');
  for (const socket of three) socket.ws.terminate();
  t.equal(await settled('mailbox_realtime_readers', readers), readers, 'the reader stops with the last socket');
  t.equal(await settled('mailbox_realtime_sockets', sockets), sockets);
});
