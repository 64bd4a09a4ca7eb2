/**
 * The realtime socket under a hostile client, on both HTTP engines (`mailbox serve --role http` in its
 * own process, uWS and node:http, sharing this file's Redis and blob store): 100 sockets of one key
 * replaying a multi-MB history get the per-key and per-space caps, the replays go at the clients' pace
 * with the front end's peak memory bounded and /healthz answering; the caps are shared by the front
 * ends and given back on close, or after a lease when a front end dies; a client that floods pings or
 * messages without reading is closed with 4000 past the buffer limit; sockets closed during their replay
 * leave nothing in the log.
 */
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import t from 'tap';
import { receiveInbound } from '../../actors/inbound.js';
import { closeSocket, keepSockets, openSocket } from '../../actors/sockets.js';
import { ManualClock } from '../../src/clock.js';
import { spaceKeys } from '../../src/redis/keys.js';
import { blobStoreEnv } from '../helpers/blobs.js';
import { servedFrontEnd, uwsLoadsHere, type ServedFrontEnd } from '../helpers/front-end.js';
import { recipient } from '../helpers/outbound.js';
import { startService } from '../helpers/service.js';
import { openSocket as connect, type SocketClient } from '../helpers/socket.js';
import { receivedMail } from '../helpers/mail.js';

// Under a loaded machine's CI (four files at once on two cores) its 6 MB replays take a while.
t.setTimeout(300_000);
const PER_KEY = 10;
const PER_SPACE = 50;
const blobs = await blobStoreEnv();
const clock = new ManualClock(Date.now());
const svc = await startService({ clock, env: blobs });
const fronts = {
  uws: await servedFrontEnd('uws', { ...blobs, RATE_LIMIT_BURST: '100000' }),
  node: await servedFrontEnd('node', { ...blobs, RATE_LIMIT_BURST: '100000' }),
};

/** The front end process's peak and current resident memory, MiB (/proc). */
function memory(front: ServedFrontEnd): { peak: number; now: number } {
  const status = readFileSync(`/proc/${front.process.pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)![1]);
  return { peak: kib('VmHWM') / 1024, now: kib('VmRSS') / 1024 };
}

const metric = async (front: ServedFrontEnd, pattern: RegExp): Promise<number> =>
  Number(pattern.exec(await (await fetch(`${front.url}/metrics`)).text())?.[1] ?? 0);
const closesWith = (front: ServedFrontEnd, code: number) =>
  metric(front, new RegExp(`^mailbox_realtime_closes_total\\{code="${code}"\\} (\\d+)$`, 'm'));
const openSockets = (front: ServedFrontEnd) => metric(front, /^mailbox_realtime_sockets (\d+)$/m);

/**
 * Polls `read` until it answers `expected` (the server learns of a client's close a moment after it);
 * bounded by time, not by polls: a loaded machine answers each poll slower.
 */
async function settled(read: () => Promise<number>, expected: number): Promise<number> {
  for (const end = Date.now() + 30_000; (await read()) !== expected && Date.now() < end;)
    await new Promise((resolve) => setTimeout(resolve, 20));
  return read();
}

/** The space's sockets counted in Redis (every front end's). */
const countedIn = (s: { spaceId: string }) => svc.rt.redis.zcard(spaceKeys(s.spaceId).sockets);

/** Polls `read` until it answers the same three times 50 ms apart; bounded. */
async function steady(read: () => Promise<number>): Promise<number> {
  let last = await read();
  for (let same = 0, i = 0; same < 3 && i < 100; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const now = await read();
    same = now === last ? same + 1 : 0;
    last = now;
  }
  return last;
}

interface Space {
  spaceId: string;
  apiKey: string;
  inboxId: string;
  address: string;
}

/** A space with one inbox (of the common domain: mail in needs no domain of its own). */
async function space(): Promise<Space> {
  const { spaceId, apiKey } = await svc.space({ plan: 'pro' });
  const res = await svc.call(apiKey, 'create_inbox', {
    username: `boite-${randomBytes(3).toString('hex')}`,
    display_name: 'Boîte',
  });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return { spaceId, apiKey, inboxId: res.body.id, address: res.body.address };
}

/** A received message whose event carries 256 KB (its text and reply_text cut to fit), its text kept in the blob store. */
async function history(s: Space, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    await receiveInbound(
      svc.rt,
      s.spaceId,
      { id: s.inboxId, address: s.address },
      receivedMail({
        from: recipient('lourd'),
        subject: `Lourd ${i}`,
        text: `${i} ${randomBytes(150_000).toString('hex')}`,
      }),
    );
  }
}

/** A socket authenticated on the upgrade that asked for the whole history, not reading until told. */
async function paused(url: string, key: string): Promise<SocketClient> {
  const socket = await connect(url, key);
  t.teardown(() => socket.ws.terminate());
  socket.ws.pause();
  socket.send({ type: 'subscribe' });
  return socket;
}

/** Everything the socket is sent until `ready` or its close; the close when it came first. */
async function drain(socket: SocketClient): Promise<{ events: number; ready: boolean; error: any }> {
  socket.ws.resume();
  let events = 0;
  for (;;) {
    const message = await socket.next().catch(() => null);
    if (!message) return { events, ready: false, error: null };
    if (message.type === 'event') events++;
    else if (message.type === 'ready') return { events, ready: true, error: null };
    else if (message.type === 'error') return { events, ready: false, error: message };
  }
}

const keys = async (s: Space, count: number) =>
  Promise.all(
    Array.from(
      { length: count },
      async (_, i) =>
        (await svc.key(s.apiKey, { name: `lecteur-${i}-${randomBytes(3).toString('hex')}`, permissions: ['read'] }))
          .apiKey,
    ),
  );

/** One space whose 24 received messages make a 6 MB history: kernel buffers on loopback take about 4 MB of it. */
const heavy = await space();
const EVENTS = 24;
await history(heavy, EVENTS);

// Each engine that runs here once (where no uWS build loads, its front end is a second node:http one).
for (const engine of uwsLoadsHere ? (['uws', 'node'] as const) : (['node'] as const)) {
  const front = fronts[engine];

  t.test(
    `${engine}: 100 sockets of one key replaying 6 MB: ${PER_KEY} served at their pace, the rest refused; the space's cap; memory bounded`,
    async (t) => {
      const [hostile, ...others] = await keys(heavy, 6);
      t.equal(await settled(() => countedIn(heavy), 0), 0, 'no socket of the space counted yet');
      const before = memory(front);
      const flood = await Promise.all(Array.from({ length: 100 }, () => paused(front.url, hostile!)));
      // The space's other keys fill it up (counted once authenticated, subscribed or not).
      const fillers = await Promise.all(
        others.slice(0, 4).flatMap((key) => Array.from({ length: PER_KEY }, () => connect(front.url, key))),
      );
      // A socket is counted once its key is checked, a moment after it opened: the outsider comes once all are.
      const counted = await settled(() => countedIn(heavy), PER_SPACE);
      t.equal(counted, PER_SPACE, 'the space full');
      // Past this, the outsider waits for a refusal that a space not full never sends. Its sockets are
      // closed before it ends: left open, they would fill the space for the tests after it.
      if (counted !== PER_SPACE) {
        for (const socket of [...flood, ...fillers]) socket.ws.terminate();
        await settled(() => countedIn(heavy), 0);
        return;
      }
      const outsider = await connect(front.url, others[4]);
      t.teardown(() => [...fillers, outsider].forEach((socket) => socket.ws.terminate()));
      const health = await fetch(`${front.url}/healthz`);
      t.equal(health.status, 200, '/healthz answers while the replays wait for their clients');

      const outcomes = await Promise.all(flood.map(drain));
      const served = outcomes.filter((o) => o.ready);
      t.equal(served.length, PER_KEY, `${PER_KEY} sockets served`);
      t.ok(
        served.every((o) => o.events === EVENTS),
        'each of them got the whole history, then ready',
      );
      const refused = outcomes.filter((o) => !o.ready);
      t.ok(
        refused.every(
          (o) => o.error?.code === 'socket_limit' && o.error.hint.scope === 'key' && o.error.hint.max === PER_KEY,
        ),
        'the others socket_limit, scope key',
      );
      t.same(
        await flood[outcomes.findIndex((o) => !o.ready)]!.closed,
        { code: 4029, reason: 'too many sockets' },
        'closed 4029',
      );
      t.match(
        await outsider.next(),
        { type: 'error', code: 'socket_limit', hint: { scope: 'space', max: PER_SPACE }, message: /pour cet espace/ },
        `a socket past ${PER_SPACE} in the space, of another key: scope space`,
      );
      const after = memory(front);
      t.comment(
        `${engine}: resident ${before.now.toFixed(0)} MiB before, peak ${after.peak.toFixed(0)} MiB (${before.peak.toFixed(0)} before)`,
      );
      t.ok(after.peak < 512, `the front end's peak memory ${after.peak.toFixed(0)} MiB, under 512`);

      for (const socket of [...flood, ...fillers, outsider]) socket.ws.terminate();
      t.equal(await settled(() => openSockets(front), 0), 0, 'every socket closed on the server');
      t.equal(await settled(() => countedIn(heavy), 0), 0, 'and its place given back, a moment after');
      const again = await Promise.all(Array.from({ length: PER_KEY }, () => paused(front.url, hostile!)));
      t.ok(
        (await Promise.all(again.map(drain))).every((o) => o.ready),
        'their places given back: the key opens 10 again',
      );
      for (const socket of again) socket.ws.terminate();
      t.equal(await settled(() => openSockets(front), 0), 0);
    },
  );

  t.test(
    `${engine}: a client that floods pings, or messages behind a waiting replay, without reading is closed with 4000`,
    async (t) => {
      const closes = await closesWith(front, 4000);
      // Both replays wait: the history fills the kernel's buffers, then half the socket's limit.
      const pinging = await paused(front.url, heavy.apiKey);
      const talking = await paused(front.url, heavy.apiKey);
      const ping = JSON.stringify({ type: 'ping' });
      // Client messages are 16 KB at most: a few dozen pass the 1 MiB limit.
      const bulky = JSON.stringify({ type: 'subscribe', padding: 'x'.repeat(15_000) });
      for (let i = 0; i < 100; i++) talking.ws.send(bulky);
      let rounds = 0;
      for (; rounds < 100 && (await closesWith(front, 4000)) < closes + 2; rounds++) {
        for (let i = 0; i < 10_000; i++) pinging.ws.send(ping);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      t.comment(`${engine}: ${rounds} rounds of 10,000 pings`);
      t.equal(await closesWith(front, 4000), closes + 2, 'both closed by the server');
      pinging.ws.resume();
      talking.ws.resume();
      t.same(await pinging.closed, { code: 4000, reason: 'resume from your cursor' }, 'pings: 4000');
      t.same(
        await talking.closed,
        { code: 4000, reason: 'resume from your cursor' },
        'messages queued behind the replay: 4000',
      );
    },
  );

  t.test(`${engine}: sockets closed during their replay are never touched again`, async (t) => {
    for (let round = 0; round < 5; round++) {
      const sockets = await Promise.all(Array.from({ length: PER_KEY }, () => connect(front.url, heavy.apiKey)));
      for (const [i, socket] of sockets.entries()) {
        socket.send({ type: 'subscribe' });
        // Closed at once, or after its first event: during a page read or a wait for room.
        if (i % 2) await socket.next();
        socket.ws.terminate();
      }
      t.equal(await settled(() => openSockets(front), 0), 0, `round ${round}: all closed on the server`);
      t.equal(await settled(() => countedIn(heavy), 0), 0, `round ${round}: their places given back`);
    }
    t.notMatch(front.logs(), /realtime message failed|Invalid access|closed uWS/, 'nothing logged');
  });
}

t.test('the caps are shared by the front ends, and given back on close', async (t) => {
  const s = await space();
  const onUws = await Promise.all(Array.from({ length: PER_KEY / 2 }, () => paused(fronts.uws.url, s.apiKey)));
  const onNode = await Promise.all(Array.from({ length: PER_KEY / 2 }, () => paused(fronts.node.url, s.apiKey)));
  t.ok(
    (await Promise.all([...onUws, ...onNode].map(drain))).every((o) => o.ready),
    `${PER_KEY} sockets of one key over two front ends`,
  );
  t.match(
    (await drain(await paused(fronts.uws.url, s.apiKey))).error,
    { code: 'socket_limit', hint: { scope: 'key' } },
    'an 11th on either is refused',
  );
  t.match((await drain(await paused(fronts.node.url, s.apiKey))).error, {
    code: 'socket_limit',
    hint: { scope: 'key' },
  });
  // The refused sockets leave the count a moment after their refusal: counted once it holds still.
  const uwsOpen = await steady(() => openSockets(fronts.uws));
  onUws[0]!.ws.terminate();
  t.equal(await settled(() => openSockets(fronts.uws), uwsOpen - 1), uwsOpen - 1);
  t.equal(await settled(() => countedIn(s), PER_KEY - 1), PER_KEY - 1, 'its place given back');
  t.ok(
    (await drain(await paused(fronts.node.url, s.apiKey))).ready,
    'one closed on one front end: another opens on the other',
  );
});

t.test('a front end that dies holding sockets: their places end with its lease, nothing scans for them', async (t) => {
  const s = await space();
  const doomed = await servedFrontEnd('uws', blobs);
  const held = await Promise.all(Array.from({ length: PER_KEY }, () => paused(doomed.url, s.apiKey)));
  t.ok((await Promise.all(held.map(drain))).every((o) => o.ready));
  doomed.process.kill('SIGKILL');
  await Promise.all(held.map((socket) => socket.closed));
  // The service's clock is the injected one: at the dead front end's time, then past its lease.
  clock.set(Date.now());
  t.match((await drain(await paused(svc.url, s.apiKey))).error, { code: 'socket_limit' }, 'still counted right after');
  clock.advance(svc.rt.config.realtime.socketLeaseMs + 1);
  t.ok((await drain(await paused(svc.url, s.apiKey))).ready, 'free once their lease passed');
});

t.test('openSocket, keepSockets, closeSocket: places per key and per space, pushed on while they live', async (t) => {
  const { spaceId } = await svc.space();
  const lease = svc.rt.config.realtime.socketLeaseMs;
  const socket = (keyId: string, n: number) => ({ keyId, socketId: `t-${keyId}-${n}` });
  for (let i = 0; i < PER_KEY; i++) await openSocket(svc.rt, spaceId, socket('key_a', i));
  await t.rejects(openSocket(svc.rt, spaceId, socket('key_a', 99)), {
    code: 'socket_limit',
    hint: { scope: 'key', max: PER_KEY },
  });
  for (let k = 1; k < PER_SPACE / PER_KEY; k++)
    for (let i = 0; i < PER_KEY; i++) await openSocket(svc.rt, spaceId, socket(`key_${k}`, i));
  await t.rejects(
    openSocket(svc.rt, spaceId, socket('key_z', 0)),
    { code: 'socket_limit', hint: { scope: 'space', max: PER_SPACE } },
    'a full space refuses a new key',
  );
  await closeSocket(svc.rt, spaceId, socket('key_a', 0));
  await openSocket(svc.rt, spaceId, socket('key_z', 0));
  t.pass('a place given back is taken by another key');
  clock.advance(lease / 2);
  await keepSockets(svc.rt, spaceId, [socket('key_z', 0)]);
  clock.advance(lease / 2 + 1);
  await openSocket(svc.rt, spaceId, socket('key_a', 100));
  t.same(
    await svc.rt.redis.zrange(spaceKeys(spaceId).sockets, '0', '-1'),
    ['t-key_z-0', 't-key_a-100'],
    'places not pushed on lapsed; the one kept stays',
  );
  t.same(await svc.rt.redis.zrange(spaceKeys(spaceId).keySockets('key_a'), '0', '-1'), ['t-key_a-100']);
});
