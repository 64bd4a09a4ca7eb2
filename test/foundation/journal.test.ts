/** list_events: days in Paris time, pages, cursors, filters, visibility of a restricted key. */
import t from 'tap';
import { ManualClock } from '../../src/clock.js';
import { startService } from '../helpers/service.js';

const clock = new ManualClock(Date.parse('2026-11-23T22:30:00.000Z')); // Monday 23:30 in Paris
const svc = await startService({ clock });

t.test('days are Paris days, newest first, paged by cursor', async (t) => {
  clock.set('2026-11-23T22:30:00.000Z');
  const { apiKey } = await svc.space();
  await svc.call(apiKey, 'create_key', { name: 'lundi-soir' });
  clock.set('2026-11-23T23:30:00.000Z'); // Tuesday 00:30 in Paris
  for (let i = 1; i <= 5; i++) {
    clock.advance(1000);
    await svc.call(apiKey, 'create_key', { name: `mardi-${i}` });
  }
  const today = await svc.call(apiKey, 'list_events', { limit: 2 });
  t.equal(today.body.day, '2026-11-24');
  t.same(
    today.body.events.map((e: { text: string }) => e.text),
    ['Création de la clé « mardi-5 » (envoi, lecture)', 'Création de la clé « mardi-4 » (envoi, lecture)'],
  );
  const next = await svc.call(apiKey, 'list_events', { limit: 2, cursor: today.body.next_cursor });
  t.same(
    next.body.events.map((e: { text: string }) => e.text.slice(21, 28)),
    ['mardi-3', 'mardi-2'],
  );
  const last = await svc.call(apiKey, 'list_events', { limit: 2, cursor: next.body.next_cursor });
  t.equal(last.body.events.length, 1);
  t.equal(last.body.next_cursor, null, 'null on the last page');
  const monday = await svc.call(apiKey, 'list_events', { day: '2026-11-23' });
  t.same(
    monday.body.events.map((e: { text: string }) => e.text),
    ['Création de la clé « lundi-soir » (envoi, lecture)', "Ouverture de l'espace"],
  );
  t.equal(monday.body.events[0].at, '2026-11-23T22:30:00.000Z');
  const empty = await svc.call(apiKey, 'list_events', { day: '2026-11-20' });
  t.same(empty.body, { day: '2026-11-20', events: [], next_cursor: null, notice: null });
});

t.test('cursors belong to one query of one space', async (t) => {
  const { apiKey } = await svc.space();
  const other = await svc.space();
  for (let i = 0; i < 3; i++) await svc.call(apiKey, 'create_key', { name: `c${i}` });
  const page = await svc.call(apiKey, 'list_events', { limit: 1 });
  const cursor = page.body.next_cursor;
  t.type(cursor, 'string');
  for (const [key, body] of [
    [other.apiKey, { limit: 1, cursor }],
    [apiKey, { limit: 1, cursor, day: '2026-11-01' }],
    [apiKey, { cursor: 'pas-un-curseur' }],
    [apiKey, { cursor: Buffer.from('["x","y"]').toString('base64url') }],
  ] as const) {
    const res = await svc.call(key, 'list_events', body);
    t.equal(res.status, 400);
    t.equal(res.body.error.code, 'invalid_argument');
    t.equal(res.body.error.hint.parameter, 'cursor');
  }
});

t.test('refusals: bad day, bad limit, two objects, too long filters', async (t) => {
  const { apiKey } = await svc.space();
  const cases: [Record<string, unknown>, string][] = [
    [{ day: '2026-02-30' }, 'day'],
    [{ day: '23/11/2026' }, 'day'],
    [{ limit: 201 }, 'limit'],
    [{ limit: 0 }, 'limit'],
    [{ inbox_id: 'inb_0000000000aaaaaaaaaa', thread_id: 'thr_0000000000aaaaaaaaaa' }, 'thread_id'],
    [{ contact: `${'a'.repeat(250)}@x.fr` }, 'contact'],
    [{ domain: 'a'.repeat(254) }, 'domain'],
    [{ message_id: 'inb_0000000000aaaaaaaaaa' }, 'message_id'],
  ];
  for (const [body, parameter] of cases) {
    const res = await svc.call(apiKey, 'list_events', body);
    t.equal(res.body.error?.code, 'invalid_argument', JSON.stringify(body));
    t.equal(res.body.error?.hint.parameter, parameter);
  }
});

t.test('an object filter reads its whole history; a restricted key sees only its inboxes', async (t) => {
  const { apiKey } = await svc.space();
  const history = await svc.call(apiKey, 'list_events', { inbox_id: 'inb_0000000000aaaaaaaaaa' });
  t.same(history.body, { day: null, events: [], next_cursor: null, notice: null });
  const reader = await svc.key(apiKey, { name: 'lecteur', permissions: ['read'] });
  const all = await svc.call(reader.apiKey, 'list_events', { limit: 200 });
  t.ok(all.body.events.length >= 2);
  t.ok(
    all.body.events.every((e: { actor: { you: boolean } }) => !e.actor.you),
    'you is true only for the author',
  );
});
