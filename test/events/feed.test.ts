/**
 * event_feed: emission order, cursors (always a string, identical when nothing is new, foreign or
 * forged refused), retention by age on the injected clock, restricted keys, and a reader that sees
 * each of 1000 concurrently emitted events exactly once and in order.
 */
import { randomBytes } from 'node:crypto';
import t from 'tap';
import { resumeInbox, suspendInbox } from '../../actors/inbox.js';
import { ManualClock } from '../../src/clock.js';
import { encodeCursor } from '../../src/cursor.js';
import { spaceKeys } from '../../src/redis/keys.js';
import { startService } from '../helpers/service.js';
import { streamEnvelopes } from '../helpers/events.js';
import { recipient, sender } from '../helpers/outbound.js';
import { receiveInbound } from '../../actors/inbound.js';
import { jsonLengthBound, PageBytes } from '../../actors/events.js';
import { receivedMail } from '../helpers/mail.js';

const clock = new ManualClock(Date.parse('2026-11-23T08:00:00.000Z'));
const svc = await startService({
  clock,
  env: { MAILBOX_MASTER_KEY: randomBytes(32).toString('base64'), WEBHOOK_ALLOW_LOOPBACK: '1' },
});

async function inbox(apiKey: string): Promise<string> {
  const res = await svc.call(apiKey, 'create_inbox', {
    username: `boite-${randomBytes(3).toString('hex')}`,
    display_name: 'Boîte',
  });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.id;
}

/** One real event: the circuit breaker suspends the inbox (then the operator resumes it, without event). */
async function emit(spaceId: string, inboxId: string, reason = 'taux de rebond trop élevé'): Promise<void> {
  await suspendInbox(svc.rt, spaceId, inboxId, reason);
  await resumeInbox(svc.rt, spaceId, inboxId);
}

const feed = (apiKey: string, body: Record<string, unknown> = {}) => svc.call(apiKey, 'event_feed', body);

t.test('in emission order, by pages; next_cursor always a string, identical when nothing is new', async (t) => {
  const { apiKey, spaceId } = await svc.space({ plan: 'pro' });
  const empty = await feed(apiKey);
  t.equal(empty.status, 200);
  t.same(empty.body.events, []);
  t.type(empty.body.next_cursor, 'string');
  t.equal((await feed(apiKey)).body.next_cursor, empty.body.next_cursor, 'the same cursor for the same empty start');
  const still = await feed(apiKey, { after: empty.body.next_cursor });
  t.equal(still.body.next_cursor, empty.body.next_cursor, 'identical when nothing is new');

  const box = await inbox(apiKey);
  for (let i = 1; i <= 5; i++) await emit(spaceId, box, `raison ${i}`);
  const first = await feed(apiKey, { after: empty.body.next_cursor, limit: 2 });
  t.same(
    first.body.events.map((e: any) => e.data.reason),
    ['raison 1', 'raison 2'],
  );
  const rest = await feed(apiKey, { after: first.body.next_cursor, limit: 500 });
  t.same(
    rest.body.events.map((e: any) => e.data.reason),
    ['raison 3', 'raison 4', 'raison 5'],
  );
  const none = await feed(apiKey, { after: rest.body.next_cursor });
  t.same(none.body.events, []);
  t.equal(none.body.next_cursor, rest.body.next_cursor, 'unchanged at the end');
  t.same((await feed(apiKey)).body.events.length, 5, 'without after: from the oldest');

  const envelope = rest.body.events[0];
  t.match(envelope, {
    id: /^evt_[0-9a-z]{20}$/,
    type: 'mail.inbox.suspended',
    occurred_at: '2026-11-23T08:00:00.000Z',
    account: { space_id: spaceId },
    subject: { person: null, refs: { inbox_id: box } },
    data: { inbox_id: box, reason: 'raison 3' },
    v: 1,
  });
  t.equal(new Set([...first.body.events, ...rest.body.events].map((e: any) => e.id)).size, 5, 'every evt id unique');
  const again = await feed(apiKey, { after: first.body.next_cursor, limit: 1 });
  t.equal(again.body.events[0].id, envelope.id, 'an id is stable: rereading gives the same envelope');
});

t.test('cursor rules: another space, forged, malformed; limit bounds', async (t) => {
  const { apiKey } = await svc.space();
  const other = await svc.space();
  const mine = (await feed(apiKey)).body.next_cursor;
  for (const [key, after] of [
    [other.apiKey, mine],
    [apiKey, 'pas-un-curseur'],
    [apiKey, encodeCursor('spc_x|event_feed', '0-0')],
    [apiKey, Buffer.from(JSON.stringify([`${'x'}|event_feed`, '1-0'])).toString('base64url')],
  ] as const) {
    const res = await feed(key, { after });
    t.equal(res.status, 400);
    t.equal(res.body.error.code, 'invalid_argument');
    t.equal(res.body.error.hint.parameter, 'after');
  }
  const settings = await svc.call(apiKey, 'get_settings');
  const forged = encodeCursor(`${settings.body.space.id}|event_feed`, '../../etc');
  t.equal(
    (await feed(apiKey, { after: forged })).body.error.hint.parameter,
    'after',
    'a well-scoped cursor with no stream position',
  );
  for (const limit of [0, 501, 1.5]) t.equal((await feed(apiKey, { limit })).body.error.hint.parameter, 'limit');
  t.equal((await feed(apiKey, { since: 'x' })).body.error.hint.parameter, 'since');
});

t.test('a key restricted to inboxes sees their events only; its cursor moves past the others', async (t) => {
  const { apiKey, spaceId } = await svc.space({ plan: 'pro' });
  const [a, b] = [await inbox(apiKey), await inbox(apiKey)];
  const reader = await svc.key(apiKey, { name: 'lecteur-a', permissions: ['read'], inbox_ids: [a] });
  await emit(spaceId, b, 'b1');
  await emit(spaceId, b, 'b2');
  const hidden = await feed(reader.apiKey);
  t.same(hidden.body.events, []);
  const start = await feed(reader.apiKey, { after: hidden.body.next_cursor });
  t.equal(start.body.next_cursor, hidden.body.next_cursor);
  await emit(spaceId, a, 'a1');
  await emit(spaceId, b, 'b3');
  await emit(spaceId, a, 'a2');
  const seen = await feed(reader.apiKey, { after: hidden.body.next_cursor, limit: 1 });
  t.same(
    seen.body.events.map((e: any) => e.data.reason),
    ['a1'],
  );
  const next = await feed(reader.apiKey, { after: seen.body.next_cursor });
  t.same(
    next.body.events.map((e: any) => e.data.reason),
    ['a2'],
    'b3 skipped',
  );
  t.same(
    (await feed(apiKey)).body.events.map((e: any) => e.data.reason),
    ['b1', 'b2', 'a1', 'b3', 'a2'],
    'the whole space for an unrestricted key',
  );
});

t.test('webhook.test goes to the webhook only, not to the feed', async (t) => {
  const { apiKey, spaceId } = await svc.space({ plan: 'pro' });
  const declared = await svc.call(apiKey, 'set_webhook', { url: 'https://127.0.0.1:9/crochet' });
  t.equal(declared.status, 200, JSON.stringify(declared.body.error ?? 'déclaré'));
  t.match(
    (await streamEnvelopes(svc.rt, spaceId)).map((e) => e.type),
    ['webhook.test'],
  );
  t.same((await feed(apiKey)).body.events, []);
  await emit(spaceId, await inbox(apiKey));
  t.same(
    (await feed(apiKey)).body.events.map((e: any) => e.type),
    ['mail.inbox.suspended'],
  );
});

t.test('kept by age: 30 days on the injected clock, whatever their number', async (t) => {
  clock.set('2026-11-23T08:00:00.000Z');
  const { apiKey, spaceId } = await svc.space({ plan: 'pro' });
  const box = await inbox(apiKey);
  for (let i = 0; i < 3; i++) await emit(spaceId, box, 'ancien');
  clock.advance(29 * 86400_000);
  await emit(spaceId, box, 'récent');
  t.same(
    (await feed(apiKey)).body.events.map((e: any) => e.data.reason),
    ['ancien', 'ancien', 'ancien', 'récent'],
    '29 days: all kept',
  );
  clock.set(Date.parse('2026-11-23T08:00:00.000Z') + 30 * 86400_000 + 1);
  await emit(spaceId, box, 'neuf');
  t.same(
    (await feed(apiKey)).body.events.map((e: any) => e.data.reason),
    ['récent', 'neuf'],
    'older than 30 days: trimmed',
  );
  const [firstId] = (await svc.rt.redis.xrange(spaceKeys(spaceId).events, '-', '+', 'COUNT', 1))[0]!;
  t.equal(
    firstId.split('-')[0],
    String(Date.parse('2026-11-23T08:00:00.000Z') + 29 * 86400_000),
    'stream ids follow the injected clock',
  );
  clock.set('2026-11-23T08:00:00.000Z');
});

t.test('ids stay increasing when the clock goes back (another front end behind)', async (t) => {
  clock.set('2026-11-25T08:00:00.000Z');
  const { apiKey, spaceId } = await svc.space({ plan: 'pro' });
  const box = await inbox(apiKey);
  await emit(spaceId, box, 'devant');
  clock.set('2026-11-25T07:59:00.000Z');
  await emit(spaceId, box, 'derrière');
  const ids = (await svc.rt.redis.xrange(spaceKeys(spaceId).events, '-', '+')).map(([id]) => id);
  t.same(ids, [`${Date.parse('2026-11-25T08:00:00.000Z')}-0`, `${Date.parse('2026-11-25T08:00:00.000Z')}-1`]);
  const events = (await feed(apiKey)).body.events;
  t.same(
    events.map((e: any) => e.data.reason),
    ['devant', 'derrière'],
  );
  t.equal(events[1].occurred_at, '2026-11-25T07:59:00.000Z', "the event filed under another ms keeps its id's time");
  clock.set('2026-11-23T08:00:00.000Z');
});

t.test('a reader following next_cursor sees 1000 concurrently emitted events exactly once, in order', async (t) => {
  const { apiKey, spaceId } = await svc.space({ plan: 'pro' });
  const boxes = await Promise.all(Array.from({ length: 10 }, () => inbox(apiKey)));
  let cursor = (await feed(apiKey)).body.next_cursor as string;
  const seen: string[] = [];
  let emitting = true;
  const emitters = Promise.all(
    boxes.map(async (box, n) => {
      for (let i = 0; i < 100; i++) {
        if (i % 25 === 0 && n === 0) clock.advance(1);
        await emit(spaceId, box, `${n}-${i}`);
      }
    }),
  ).finally(() => (emitting = false));
  let pages = 0;
  while (emitting || seen.length < 1000) {
    const page = await feed(apiKey, { after: cursor, limit: 1 + (pages++ % 7) * 37 });
    t.equal(page.status, 200);
    for (const event of page.body.events) seen.push(event.id);
    if (!page.body.events.length) t.equal(page.body.next_cursor, cursor, 'identical when nothing is new');
    cursor = page.body.next_cursor;
    if (!emitting && !page.body.events.length) break;
  }
  await emitters;
  const stream = (await streamEnvelopes(svc.rt, spaceId)).map((e) => e.id);
  t.equal(stream.length, 1000);
  t.equal(new Set(seen).size, seen.length, 'no event twice');
  t.same(seen, stream, 'every event, in emission order');
  t.ok(pages > 10, `read while emitting (${pages} pages)`);
});

t.test('a page stops before 4 MB of envelopes, where exact sizes stop it: no event lost, none twice', async (t) => {
  const s = await sender(svc);
  const from = recipient('gros');
  // Texts of 200 KB, and their reply_text as much again: each event cut to its 256 KB, about sixteen a page.
  const count = 40;
  for (let i = 0; i < count; i++) {
    await receiveInbound(
      svc.rt,
      s.spaceId,
      { id: s.inboxId, address: s.address },
      receivedMail({
        from,
        subject: `Gros ${i}`,
        text: `${i} ${'x'.repeat(200_000)}`,
      }),
    );
  }
  const pages: { type: string; message_id: string; size: number }[][] = [];
  let cursor: string | undefined;
  for (;;) {
    const res = await feed(s.apiKey, { limit: 100, ...(cursor ? { after: cursor } : {}) });
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
    if (!res.body.events.length) break;
    pages.push(
      res.body.events.map((e: { type: string; data: { message_id: string } }) => ({
        type: e.type,
        message_id: e.data.message_id,
        size: Buffer.byteLength(JSON.stringify(e)),
      })),
    );
    cursor = res.body.next_cursor;
  }
  const received = pages.flat().filter((e) => e.type === 'mail.message.received');
  t.ok(pages.length >= 3, `${pages.length} pages`);
  t.equal(new Set(received.map((e) => e.message_id)).size, count, 'every event once');
  t.ok(
    received.every((e) => e.size <= 256 * 1024),
    'each event within 256 KB',
  );
  const total = (page: { size: number }[]) => page.reduce((sum, e) => sum + e.size, 0);
  for (const [i, page] of pages.entries()) {
    t.ok(total(page) <= 4 * 1024 * 1024, `page ${i} within 4 MB`);
    if (i < pages.length - 1)
      t.ok(total(page) + pages[i + 1]![0]!.size > 4 * 1024 * 1024, `page ${i} as full as exact sizes allow`);
  }
});

t.test(
  'a message event weighs at most 256 KB as JSON: its texts cut to fit, reply_text keeping half, no character split',
  async (t) => {
    const s = await sender(svc);
    const receive = (text: string) =>
      receiveInbound(
        svc.rt,
        s.spaceId,
        { id: s.inboxId, address: s.address },
        receivedMail({
          from: recipient('long'),
          from_name: 'Long',
          subject: 'Très long',
          text,
        }),
      );
    // Escapes (quotes, line ends, controls) and characters of 2, 3 and 4 bytes: JSON longer than the text.
    const hostile = 'Ligne « é » "citée" \\ \u0001 — 😀\n'.repeat(40_000);
    const quoted = `Réponse nouvelle.\n\nLe lun. 23 nov. 2026 à 09:00, Alice a écrit :\n${'> ancien texte "cité"\n'.repeat(40_000)}`;
    const emoji = '😀'.repeat(300_000);
    for (const text of [hostile, quoted, emoji]) await receive(text);
    const sent = await svc.call(s.apiKey, 'send_email', {
      inbox_id: s.inboxId,
      to: recipient(),
      subject: 'Long',
      text: hostile.slice(0, 500_000),
    });
    t.equal(sent.status, 200, JSON.stringify(sent.body).slice(0, 300));
    const events = (await streamEnvelopes(svc.rt, s.spaceId)).filter((e) =>
      ['mail.message.received', 'mail.message.queued'].includes(e.type),
    );
    t.equal(events.length, 4);
    for (const [i, event] of events.entries()) {
      const size = Buffer.byteLength(JSON.stringify(event));
      t.ok(size <= 256 * 1024, `event ${i} (${event.type}): ${size} bytes`);
      t.ok(size > 255 * 1024, `event ${i}: filled to its limit`);
      const data = event.data as { text: string; reply_text?: string };
      const source = i < 3 ? [hostile, quoted, emoji][i]! : hostile.slice(0, 500_000);
      t.ok(data.text.length > 0 && source.startsWith(data.text), `event ${i}: text is the start of the message's`);
      t.notMatch(data.text, /[\ud800-\udbff]$/, `event ${i}: no character cut in two`);
      if (i < 3)
        t.ok(
          data.reply_text!.length > 0 && data.text.startsWith(data.reply_text!.slice(0, 100)),
          `event ${i}: reply_text kept`,
        );
    }
    t.equal(
      (events[1]!.data as { reply_text: string }).reply_text,
      'Réponse nouvelle.',
      'a short reply_text whole, the text taking the rest',
    );
    const page = await feed(s.apiKey, { limit: 500 });
    const largest = Math.max(...page.body.events.map((e: unknown) => Buffer.byteLength(JSON.stringify(e))));
    t.ok(largest <= 256 * 1024, `event_feed gives the same bound (${largest} bytes)`);
  },
);

t.test("jsonLengthBound is never below JSON.stringify's length; PageBytes counts as exact sizes would", async (t) => {
  const values: unknown[] = [
    '',
    'plain',
    '"quoted" \\ back',
    '\u0000\u0001\u001f control',
    'é à ü',
    '😀 emoji',
    '\ud800 lone surrogate',
    '\u2028\u2029',
    0,
    -1.2345678901234567e-308,
    1e21,
    Number.MAX_SAFE_INTEGER,
    true,
    false,
    null,
    [],
    [1, 'a', null, [undefined]],
    {},
    { a: undefined, b: [{ c: '\n' }] },
    { 'clé "é"': { deep: ['x'.repeat(1000)] } },
  ];
  // Named by position: some of these characters would break a line of the test's own output.
  for (const [i, value] of values.entries()) t.ok(jsonLengthBound(value) >= JSON.stringify(value).length, `value ${i}`);
  const sizes = [100, 5000, 30, 40];
  const items = sizes.map((n) => ({ text: 'x'.repeat(n) }));
  for (const max of [50, 150, 5130, 5150, 5200, 10_000]) {
    const bytes = new PageBytes(max);
    let counted = 0;
    for (const [i, item] of items.entries()) {
      if (!bytes.add(item, i === 0)) break;
      counted++;
    }
    t.equal(counted, firstStop(items, max), `max ${max}`);
  }
});

/** How many of `items` a page of `max` bytes takes, by exact sizes, stopping at the first that does not fit (the first always taken). */
function firstStop(items: unknown[], max: number): number {
  let used = 0;
  for (const [i, item] of items.entries()) {
    const size = JSON.stringify(item).length;
    if (i > 0 && used + size > max) return i;
    used += size;
  }
  return items.length;
}
