/**
 * Daily quotas cannot be doubled: over a week and a half of warm-up, with new sends every
 * morning and cancellations in between, no Paris day sees more departures than its quota, and the
 * inbox's counters never go below zero, even when they had drifted. And the worker's last line of
 * defence: a message whose day already reached its quota waits for the next day's window.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { DateTime } from 'luxon';
import { transportFor } from '../../src/delivery/transports.js';
import type { Transport } from '../../src/delivery/types.js';
import { spaceKeys } from '../../src/redis/keys.js';
import { warmup } from '../../src/sending/warmup.js';
import { parisDay } from '../../src/texts.js';
import { deliverDue } from '../../src/workers/send.js';
import { MASTER_KEY } from '../helpers/domains.js';
import { recipient, sender, type Sender } from '../helpers/outbound.js';
import { mondayMorning, startService, type TestService } from '../helpers/service.js';

const PARIS = 'Europe/Paris';
const SLOT_FIELD = /^((sent|bounced|complained):)?\d{4}-\d\d-\d\d$|^last$/;

async function quotaService() {
  const clock = mondayMorning(); // Monday 23 November 2026, 9:00 in Paris
  const dataDir = mkdtempSync(join(tmpdir(), 'mbx-quota-'));
  const svc = await startService({ clock, env: { MAILBOX_MASTER_KEY: MASTER_KEY, MAILBOX_DATA_DIR: dataDir } });
  const s = await sender(svc);
  // The real outbox transport, with each hand-over counted on the Paris day it happened.
  const departures = new Map<string, number>();
  const real = transportFor(svc.rt);
  const transport: Transport = {
    ...real,
    send: (mail) => {
      const day = parisDay(clock.now());
      departures.set(day, (departures.get(day) ?? 0) + 1);
      return real.send(mail);
    },
  };
  return { clock, svc, s, transport, departures };
}

/** The inbox's counters as stored: every slots field well-formed and not negative, `queued` equal to its queue. */
async function checkCounters(t: Test, svc: TestService, s: Sender, when: string) {
  const keys = spaceKeys(s.spaceId);
  const [slots, queued, inQueue] = await Promise.all([
    svc.rt.redis.hgetall(keys.inboxSlots(s.inboxId)),
    svc.rt.redis.hget(keys.inbox(s.inboxId), 'queued'),
    svc.rt.redis.zcard(keys.inboxQueue(s.inboxId)),
  ]);
  const bad = Object.entries(slots).filter(([field, value]) => !SLOT_FIELD.test(field) || Number(value) < 0);
  t.same(bad, [], `${when}: slot counters well-named and not negative`);
  t.equal(Number(queued ?? 0), inQueue, `${when}: queued counts the queue`);
}

async function sendMany(
  t: Test,
  svc: TestService,
  s: Sender,
  estimates: Map<string, number>,
  count: number,
): Promise<void> {
  for (let i = 0; i < count; i++) {
    const res = await svc.call(s.apiKey, 'send_email', {
      inbox_id: s.inboxId,
      to: recipient(`r${i}`),
      subject: `Offre ${i}`,
      text: 'Bonjour,\nune offre.',
    });
    t.equal(res.status, 200, JSON.stringify(res.body.error));
    estimates.set(res.body.message.id, Date.parse(res.body.estimated_send_at));
  }
}

t.test("a week of warm-up with cancellations: never more departures than the day's quota", async (t) => {
  const { clock, svc, s, transport, departures } = await quotaService();
  const createdAt = clock.now();
  const estimates = new Map<string, number>();
  for (
    let day = DateTime.fromMillis(clock.now(), { zone: PARIS });
    day.toISODate()! <= '2026-12-02';
    day = day.plus({ days: 1 })
  ) {
    clock.set(day.set({ hour: 9, minute: 0 }).toMillis());
    if (day.weekday <= 5) {
      // Four sends, a cancellation of the furthest departure (once the backlog passes today, a later
      // day's reservation), three more sends: a day's worth and a bit more each day, so the backlog
      // keeps ending on the next day, whose reservations the plan then reads.
      await sendMany(t, svc, s, estimates, 4);
      const furthest = [...estimates].sort((a, b) => b[1] - a[1])[0]![0];
      const res = await svc.call(s.apiKey, 'cancel_message', { message_id: furthest });
      t.equal(res.status, 200, JSON.stringify(res.body.error));
      estimates.delete(furthest);
      await checkCounters(t, svc, s, `${day.toISODate()} after a cancellation`);
      await sendMany(t, svc, s, estimates, 3);
      await checkCounters(t, svc, s, `${day.toISODate()} after sends`);
    }
    const dayEnd = day.plus({ days: 1 }).startOf('day').toMillis();
    for (;;) {
      const next = await deliverDue(svc.rt, transport, s.spaceId, s.inboxId);
      if (next === null || next >= dayEnd) break;
      clock.set(Math.max(next, clock.now() + 1));
    }
    await checkCounters(t, svc, s, `${day.toISODate()} after its departures`);
  }
  t.same([...departures.keys()].sort(), [
    '2026-11-23',
    '2026-11-24',
    '2026-11-25',
    '2026-11-26',
    '2026-11-27',
    '2026-11-30',
    '2026-12-01',
    '2026-12-02',
  ]);
  for (const [day, count] of departures) {
    const quota = warmup(createdAt, DateTime.fromISO(day, { zone: PARIS }).set({ hour: 9 }).toMillis(), 20).step;
    t.ok(count <= quota, `${day}: ${count} departures for a quota of ${quota}`);
    // Week 1 ends each day with a backlog: every day full, the cancelled units given back and reused.
    if (quota === 5) t.equal(count, 5, `${day}: exactly the week-1 quota`);
    else t.ok(count > 5, `${day}: week 2 sends past week 1's quota`);
  }
  const waiting = await svc.rt.redis.zcard(spaceKeys(s.spaceId).inboxQueue(s.inboxId));
  t.equal(
    [...departures.values()].reduce((a, b) => a + b, 0) + waiting,
    estimates.size,
    'every message not cancelled left or still waits',
  );
});

t.test("the worker holds a message when the day's departures already reached the quota", async (t) => {
  const { clock, svc, s, transport, departures } = await quotaService();
  const res = await svc.call(s.apiKey, 'send_email', {
    inbox_id: s.inboxId,
    to: recipient(),
    subject: 'Bonjour',
    text: 'Bonjour,\nune offre.',
  });
  t.equal(res.status, 200, JSON.stringify(res.body.error));
  t.equal(Date.parse(res.body.estimated_send_at), clock.now(), 'due at once');
  // A crafted state: today's departures already at the week-1 quota, as a drifted reservation would allow.
  await svc.rt.redis.hset(spaceKeys(s.spaceId).inboxSlots(s.inboxId), `sent:${parisDay(clock.now())}`, '5');

  const next = await deliverDue(svc.rt, transport, s.spaceId, s.inboxId);
  t.equal(next, Date.parse('2026-11-24T08:00:00Z'), "held until the next day's window opens (Tuesday 9:00 in Paris)");
  t.equal(departures.size, 0, 'nothing handed to the transport');
  t.equal(
    await svc.rt.redis.hget(spaceKeys(s.spaceId).message(res.body.message.id), 'status'),
    'queued',
    'still queued',
  );

  clock.set(next!);
  t.equal(await deliverDue(svc.rt, transport, s.spaceId, s.inboxId), null, 'sent the next day, queue empty');
  t.same([...departures], [['2026-11-24', 1]]);
});

t.test('a cancellation on drifted counters leaves them at zero, not below', async (t) => {
  const { clock, svc, s } = await quotaService();
  const res = await svc.call(s.apiKey, 'send_email', {
    inbox_id: s.inboxId,
    to: recipient(),
    subject: 'Bonjour',
    text: 'Bonjour,\nune offre.',
  });
  t.equal(res.status, 200, JSON.stringify(res.body.error));
  // A crafted drift: the day's reservation and the inbox's `queued` already at zero (as an older bug left them).
  const keys = spaceKeys(s.spaceId);
  const day = parisDay(clock.now());
  await svc.rt.redis.hset(keys.inboxSlots(s.inboxId), day, '0');
  await svc.rt.redis.hset(keys.inbox(s.inboxId), 'queued', '0');

  const cancelled = await svc.call(s.apiKey, 'cancel_message', { message_id: res.body.message.id });
  t.equal(cancelled.status, 200, JSON.stringify(cancelled.body.error));
  t.equal(await svc.rt.redis.hget(keys.inboxSlots(s.inboxId), day), '0', "the day's reservations stay at zero");
  t.equal(await svc.rt.redis.hget(keys.inbox(s.inboxId), 'queued'), '0', 'queued stays at zero');
});

t.test('a day whose reservations drifted below zero grants no more than its quota', async (t) => {
  const { clock, svc, s } = await quotaService();
  const day = parisDay(clock.now());
  await svc.rt.redis.hset(spaceKeys(s.spaceId).inboxSlots(s.inboxId), day, '-3');
  const estimates = new Map<string, number>();
  await sendMany(t, svc, s, estimates, 7);
  const today = [...estimates.values()].filter((at) => parisDay(at) === day);
  t.equal(today.length, 5, `today's slots: the week-1 quota (${today.length}), not 8`);
});

t.test(
  'a cancelled departure gives its place back: the next message is spaced from the departures that remain, not from the cancelled one',
  async (t) => {
    const { clock, svc, s, transport } = await quotaService();
    const spacing = svc.rt.config.spacingSeconds * 1000;
    const queue = async (subject: string) => {
      const res = await svc.call(s.apiKey, 'send_email', {
        inbox_id: s.inboxId,
        to: recipient(),
        subject,
        text: 'Bonjour,\nune offre.',
      });
      t.equal(res.status, 200, JSON.stringify(res.body.error));
      return { id: res.body.message.id as string, at: Date.parse(res.body.estimated_send_at) };
    };
    const cancel = async (id: string) =>
      t.equal((await svc.call(s.apiKey, 'cancel_message', { message_id: id })).status, 200);
    // The spacing carries a 0-50 % jitter drawn at each reservation: a slot is within [from + spacing, from + 1.5 spacing].
    const spacedFrom = (at: number, from: number, what: string) =>
      t.ok(at >= from + spacing && at <= from + spacing * 1.5, `${what}: ${(at - from) / 1000} s after`);

    const first = await queue('Premier');
    t.equal(first.at, clock.now(), 'the first leaves at once');
    const second = await queue('Deuxième');
    spacedFrom(second.at, first.at, 'the second is spaced from the first');
    await cancel(second.id);
    const third = await queue('Troisième');
    spacedFrom(third.at, first.at, "the third takes the cancelled one's place, spaced from the first");
    t.ok(third.at < second.at + spacing, 'not spaced from the cancelled one');

    await cancel(third.id);
    await cancel(first.id);
    // Nothing queued: `last` goes back a spacing before the cancelled slot (what left before it, if
    // anything, left at least that long before), so the next is within a jitter of that slot.
    const alone = await queue('Seul');
    t.ok(
      alone.at >= first.at && alone.at <= first.at + spacing / 2,
      `nothing queued: within the jitter of the cancelled slot (${(alone.at - first.at) / 1000} s)`,
    );
    clock.set(alone.at);

    t.equal(await deliverDue(svc.rt, transport, s.spaceId, s.inboxId), null, 'the lone one left');
    const next = await queue('Après un départ');
    await cancel(next.id);
    const after = await queue('Après une annulation');
    t.ok(
      after.at >= alone.at + spacing,
      `still spaced from the one that left: ${(after.at - alone.at) / 1000} s after`,
    );
    t.ok(after.at < next.at + spacing, 'not spaced from the cancelled one');
  },
);
