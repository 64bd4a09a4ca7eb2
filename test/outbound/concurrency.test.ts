/**
 * The queue decision under concurrency (docs/contract.md, Decision 4): parallel send_email calls on one inbox never
 * oversubscribe the queue cap, a key's daily cap or a day's quota, and parallel retries of one send
 * (same idempotency key) create one message.
 */
import t from 'tap';
import { MASTER_KEY } from '../helpers/domains.js';
import { inboxState, recipient, sender } from '../helpers/outbound.js';
import { mondayMorning, startService } from '../helpers/service.js';

const clock = mondayMorning();
// `petit`: a daily maximum of 2, so a queue cap of 20.
const PLANS = JSON.stringify({ pro: { inbox_cap: 25 }, petit: { inbox_cap: 3, daily_max: 2 } });
const svc = await startService({ clock, env: { MAILBOX_MASTER_KEY: MASTER_KEY, PLANS } });

const codes = (results: { status: number; body: any }[]) => {
  const out: Record<string, number> = {};
  for (const res of results) {
    const code = res.status === 200 ? 'ok' : res.body.error.code;
    out[code] = (out[code] ?? 0) + 1;
  }
  return out;
};

t.test(
  '100 parallel sends to distinct recipients: exactly the queue cap is accepted, each day within its quota',
  async (t) => {
    const s = await sender(svc, { plan: 'petit' });
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        svc.call(s.apiKey, 'send_email', {
          inbox_id: s.inboxId,
          to: recipient(`p${i}`),
          subject: 'Offre',
          text: 'Bonjour !',
        }),
      ),
    );
    t.same(codes(results), { ok: 20, queue_full: 80 }, 'ten times the daily maximum, not one more');
    const state = await inboxState(svc, s);
    t.equal(state.queued, 20);
    t.equal(state.inboxQueueIds.length, 20);
    const perDay = Object.entries(state.slots).filter(([day]) => day !== 'last');
    t.ok(
      perDay.every(([, n]) => Number(n) <= 2),
      'no day holds more than its quota',
    );
    t.equal(
      perDay.reduce((sum, [, n]) => sum + Number(n), 0),
      20,
      'one reservation per queued message',
    );
    const slots = results
      .filter((r) => r.status === 200)
      .map((r) => Date.parse(r.body.estimated_send_at))
      .sort((a, b) => a - b);
    for (let i = 1; i < slots.length; i++)
      t.ok(slots[i]! - slots[i - 1]! >= 600_000, `departure ${i + 1} spaced from the one before`);
  },
);

t.test('100 parallel sends with a capped key: exactly its daily cap is created', async (t) => {
  const s = await sender(svc);
  const capped = await svc.key(s.apiKey, { name: 'robot', permissions: ['send'], daily_cap: 30 });
  const results = await Promise.all(
    Array.from({ length: 100 }, (_, i) =>
      svc.call(capped.apiKey, 'send_email', {
        inbox_id: s.inboxId,
        to: recipient(`k${i}`),
        subject: 'Offre',
        text: 'Bonjour !',
        requires_approval: i % 3 === 0,
      }),
    ),
  );
  t.same(codes(results), { ok: 30, key_daily_cap: 70 });
  const state = await inboxState(svc, s);
  t.equal(state.drafts + state.queued, 30);
  t.same(state.keySent, { [capped.keyId]: '30' });
});

t.test('a retried send with the same idempotency key creates one message, in sequence and in parallel', async (t) => {
  const s = await sender(svc);
  const body = {
    inbox_id: s.inboxId,
    to: recipient(),
    subject: 'Relance',
    text: 'Bonjour !',
    idempotency_key: 'commande-1234',
  };
  const first = await svc.call(s.apiKey, 'send_email', body);
  const retry = await svc.call(s.apiKey, 'send_email', body);
  t.same([first.body.replayed, retry.body.replayed], [false, true]);
  t.equal(retry.body.message.id, first.body.message.id);

  const parallel = { ...body, to: recipient(), idempotency_key: 'commande-5678' };
  const results = await Promise.all(Array.from({ length: 20 }, () => svc.call(s.apiKey, 'send_email', parallel)));
  t.ok(
    results.every((r) => r.status === 200),
    'every retry answers',
  );
  t.equal(new Set(results.map((r) => r.body.message.id)).size, 1, 'all name the same message');
  t.equal(results.filter((r) => !r.body.replayed).length, 1, 'one created it, the others replayed it');
  const state = await inboxState(svc, s);
  t.equal(state.queued, 2, 'two messages in all');
  t.equal(Object.keys(state.recipients).length, 2);
});
