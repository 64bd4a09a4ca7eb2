/**
 * `mailbox admin recount <inbox_id> --space <space_id>`: counters corrupted through Redis come back to
 * what the inbox holds: queued and drafts from its sets, each day's reservations from its queued
 * messages, today's with the departures already made.
 */
import t from 'tap';
import { finishDelivery, takeDue } from '../../actors/delivery.js';
import { recountInbox } from '../../actors/recount.js';
import { spaceKeys } from '../../src/redis/keys.js';
import { MASTER_KEY } from '../helpers/domains.js';
import { inboxState, send, sender } from '../helpers/outbound.js';
import { cli } from '../helpers/cli.js';
import { mondayMorning, startService } from '../helpers/service.js';

const clock = mondayMorning();
const svc = await startService({
  clock,
  env: { MAILBOX_MASTER_KEY: MASTER_KEY, SEND_WINDOW: 'always', SPACING_SECONDS: '0' },
});

t.test('recount puts back queued, drafts and the day reservations, and prints before and after', async (t) => {
  const s = await sender(svc, { plan: 'pro' });
  const today = '2026-11-23';
  // Week 1 of warm-up: 5 a day. Six messages: five today, one tomorrow.
  for (let i = 0; i < 6; i++) t.equal((await send(svc, s)).status, 200);
  t.equal((await send(svc, s, { requires_approval: true })).status, 200, 'a draft');
  // One departure made today: its unit stays with today.
  const taken = await takeDue(svc.rt, s.spaceId, s.inboxId);
  if (!('departure' in taken)) throw new Error(`nothing taken: ${JSON.stringify(taken)}`);
  await finishDelivery(svc.rt, s.spaceId, taken.departure, { ok: true, response: '250 ok' }, true);
  const good = await inboxState(svc, s);
  const tomorrow = Object.keys(good.slots).find((field) => /^\d{4}-\d{2}-\d{2}$/.test(field) && field > today)!;
  t.same([good.queued, good.drafts, good.slots[today], good.slots[tomorrow]], [5, 1, '5', '1']);

  const keys = spaceKeys(s.spaceId);
  await svc.rt.redis.hset(keys.inbox(s.inboxId), 'queued', '9', 'drafts', '4');
  await svc.rt.redis.hset(keys.inboxSlots(s.inboxId), today, '7', tomorrow, '0', '2026-11-30', '3', '2026-11-20', '2');

  // The command's function, on the test's clock (the CLI's own runtime reads the system clock).
  const printed = await recountInbox(svc.rt, s.spaceId, s.inboxId);
  t.same(
    printed.before,
    { queued: 9, drafts: 4, slots: { [today]: 7, [tomorrow]: 0, '2026-11-30': 3 } },
    'before: as corrupted (past days left out)',
  );
  t.same(printed.after, { queued: 5, drafts: 1, slots: { [today]: 5, [tomorrow]: 1 } });
  const repaired = await inboxState(svc, s);
  t.same({ ...repaired.slots }, { ...good.slots, '2026-11-20': '2' }, 'the slots as they were, an old day untouched');
  t.same([repaired.queued, repaired.drafts], [good.queued, good.drafts]);

  const again = await recountInbox(svc.rt, s.spaceId, s.inboxId);
  t.same(again.before, again.after, 'a second recount changes nothing');

  const res = await cli('admin', 'recount', s.inboxId, '--space', s.spaceId);
  t.equal(res.code, 0, res.err);
  const line = JSON.parse(res.out);
  t.same(
    [line.space_id, line.inbox_id, line.after.queued, line.after.drafts],
    [s.spaceId, s.inboxId, 5, 1],
    'the command prints one JSON line',
  );
});

t.test('recount refusals', async (t) => {
  const { spaceId } = await svc.space();
  t.equal((await cli('admin', 'recount', 'inb_00000000000000000000')).code, 2, 'no space');
  t.equal((await cli('admin', 'recount', 'nope', '--space', spaceId)).code, 2, 'not an inbox id');
  const missing = await cli('admin', 'recount', 'inb_00000000000000000000', '--space', spaceId);
  t.equal(missing.code, 1);
  t.match(missing.err, /^not_found: /);
});
