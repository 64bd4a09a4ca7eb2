/**
 * A new inbox through its first week and a half, on an injected clock: exactly its warm-up quota
 * leaves each working day, inside the window, spaced, the rest waits, and estimated_send_at said when.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { DateTime } from 'luxon';
import { transportFor } from '../../src/delivery/transports.js';
import { deliverDue } from '../../src/workers/send.js';
import { MASTER_KEY } from '../helpers/domains.js';
import { recipient, sender } from '../helpers/outbound.js';
import { mondayMorning, startService } from '../helpers/service.js';

t.test('warm-up: 5 a day the first week, inside the window, spaced, as estimated', async (t) => {
  const clock = mondayMorning(); // Monday 23 November 2026, 9:00 in Paris
  const dataDir = mkdtempSync(join(tmpdir(), 'mbx-outbox-'));
  const svc = await startService({ clock, env: { MAILBOX_MASTER_KEY: MASTER_KEY, MAILBOX_DATA_DIR: dataDir } });
  const s = await sender(svc);
  const estimates = new Map<string, number>();
  for (let i = 0; i < 32; i++) {
    const res = await svc.call(s.apiKey, 'send_email', {
      inbox_id: s.inboxId,
      to: recipient(`r${i}`),
      subject: `Proposition ${i}`,
      text: 'Bonjour,\nvoici notre proposition.',
    });
    t.equal(res.status, 200, JSON.stringify(res.body.error));
    estimates.set(res.body.message.id, Date.parse(res.body.estimated_send_at));
  }
  const transport = transportFor(svc.rt);
  const sentAt = new Map<string, number>();
  const end = Date.parse('2026-12-01T17:00:00Z');
  while (clock.now() < end) {
    const next = await deliverDue(svc.rt, transport, s.spaceId, s.inboxId);
    for (const [id] of estimates) {
      if (sentAt.has(id)) continue;
      const message = await svc.call(s.apiKey, 'list_events', { message_id: id });
      if (message.body.events.some((e: { kind: string }) => e.kind === 'message.sent')) sentAt.set(id, clock.now());
    }
    if (next === null) break;
    clock.set(Math.max(next, clock.now() + 1));
  }
  const perDay = new Map<string, number[]>();
  for (const [id, at] of sentAt) {
    t.equal(at, estimates.get(id), `${id} left at its estimate`);
    const paris = DateTime.fromMillis(at, { zone: 'Europe/Paris' });
    t.ok(paris.weekday <= 5 && paris.hour >= 9 && paris.hour < 18, `${paris.toISO()} is inside the window`);
    const day = paris.toISODate()!;
    perDay.set(day, [...(perDay.get(day) ?? []), at]);
  }
  t.same(
    [...perDay.keys()].sort(),
    ['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-30'],
    'nothing on the weekend',
  );
  for (const [day, times] of perDay) {
    if (day < '2026-11-30') t.equal(times.length, 5, `${day}: exactly the week-1 quota`);
    times.sort((a, b) => a - b);
    for (let i = 1; i < times.length; i++)
      t.ok(times[i]! - times[i - 1]! >= 600_000, `${day}: spaced by at least 10 min`);
  }
  t.equal(perDay.get('2026-11-30')!.length, 7, 'week 2 (10 a day) sends the 7 left on Monday');
  t.equal(sentAt.size, 32);
  t.equal(
    readdirSync(join(dataDir, 'outbox')).filter((f) => f.endsWith('.eml')).length,
    32,
    'one .eml per message, none twice',
  );
});
