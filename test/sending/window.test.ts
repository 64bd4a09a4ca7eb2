/** The sending window: Paris working days, French public holidays, summer time. */
import t from 'tap';
import {
  afterWorkingDays,
  frenchHolidays,
  openIntervals,
  openIntervalsAt,
  parseSendWindow,
} from '../../src/sending/window.js';

const paris = parseSendWindow('mon-fri 09:00-18:00 Europe/Paris holidays:fr');
const iso = (ms: number) => new Date(ms).toISOString();

t.test('French public holidays, movable ones from Easter', async (t) => {
  const y2026 = frenchHolidays(2026);
  for (const day of [
    '2026-01-01',
    '2026-04-06',
    '2026-05-01',
    '2026-05-08',
    '2026-05-14',
    '2026-05-25',
    '2026-07-14',
    '2026-08-15',
    '2026-11-01',
    '2026-11-11',
    '2026-12-25',
  ]) {
    t.ok(y2026.has(day), day);
  }
  t.equal(y2026.size, 11);
  t.ok(frenchHolidays(2027).has('2027-03-29'), 'Easter Monday 2027');
  t.ok(frenchHolidays(2025).has('2025-04-21'), 'Easter Monday 2025');
});

t.test('a Friday evening opens next Monday at 9:00 Paris time', async (t) => {
  const friday = Date.parse('2026-11-27T18:30:00Z'); // 19:30 in Paris
  const [first, second] = openIntervals(paris, friday, 7);
  t.equal(first!.day, '2026-11-30');
  t.equal(iso(first!.start), '2026-11-30T08:00:00.000Z');
  t.equal(iso(first!.end), '2026-11-30T17:00:00.000Z');
  t.equal(second!.day, '2026-12-01');
});

t.test('inside the window, the current interval starts now', async (t) => {
  const now = Date.parse('2026-11-23T10:15:00Z');
  const [first] = openIntervals(paris, now, 1);
  t.equal(first!.start, now);
});

t.test('holidays are skipped; summer time moves 9:00 Paris to 07:00 UTC', async (t) => {
  const [first] = openIntervals(paris, Date.parse('2026-11-10T18:00:00Z'), 7);
  t.equal(first!.day, '2026-11-12', 'Armistice day skipped');
  const [summer] = openIntervals(paris, Date.parse('2026-07-13T17:00:00Z'), 7);
  t.equal(summer!.day, '2026-07-15', 'July 14 skipped');
  t.equal(iso(summer!.start), '2026-07-15T07:00:00.000Z');
});

t.test('always, and replies outside the window, open whole days', async (t) => {
  const saturday = Date.parse('2026-11-28T21:00:00Z');
  const [first] = openIntervals(parseSendWindow('always'), saturday, 2);
  t.equal(first!.start, saturday);
  t.equal(first!.day, '2026-11-28');
  const [reply] = openIntervals(paris, saturday, 2, true);
  t.equal(reply!.start, saturday, 'a reply in a conversation may leave on a Saturday');
  t.equal(iso(reply!.end), '2026-11-28T23:00:00.000Z', 'until Paris midnight');
});

t.test('bad configurations are refused at start', async (t) => {
  for (const spec of [
    'mon-fri 18:00-09:00 Europe/Paris',
    'fri-mon 09:00-18:00 Europe/Paris',
    'moon 09:00-18:00 Europe/Paris',
    'sometimes',
  ]) {
    t.throws(() => parseSendWindow(spec), spec);
  }
});

t.test('computed once a minute, the intervals are those computed at the instant', async (t) => {
  const windows = [paris, parseSendWindow('always'), parseSendWindow('mon,wed,fri 08:30-12:15 America/New_York')];
  // Across a summer-time change, a window's opening and closing, midnight, and seconds inside a minute.
  const instants = [
    '2026-03-27T07:59:59.999Z',
    '2026-03-27T08:00:00.000Z',
    '2026-03-27T16:59:30.500Z',
    '2026-03-27T17:00:00.001Z',
    '2026-03-28T23:00:00.000Z',
    '2026-03-29T00:59:59.000Z',
    '2026-03-29T01:00:30.000Z',
    '2026-11-24T12:15:00.000Z',
    '2026-11-24T17:14:59.999Z',
    '2026-11-24T17:15:00.000Z',
    '2026-11-24T17:15:45.000Z',
  ].map(Date.parse);
  for (const window of windows) {
    for (const now of instants)
      t.same(
        openIntervalsAt(window, now, 15),
        openIntervals(window, now, 15),
        `${window.zone} at ${new Date(now).toISOString()}`,
      );
  }
});

t.test('times are wall-clock times of each day, summer-time days and year ends included', async (t) => {
  const everyDay = parseSendWindow('mon-sun 09:00-18:00 Europe/Paris');
  const [spring] = openIntervals(everyDay, Date.parse('2026-03-28T20:00:00Z'), 2).filter((i) => i.day === '2026-03-29');
  t.equal(iso(spring!.start), '2026-03-29T07:00:00.000Z', 'the Sunday clocks go forward: 9:00 Paris is 07:00 UTC');
  t.equal(iso(spring!.end), '2026-03-29T16:00:00.000Z');
  const [autumn] = openIntervals(everyDay, Date.parse('2026-10-24T20:00:00Z'), 2).filter((i) => i.day === '2026-10-25');
  t.equal(iso(autumn!.start), '2026-10-25T08:00:00.000Z', 'the Sunday clocks go back: 9:00 Paris is 08:00 UTC');
  const days = openIntervals(parseSendWindow('always'), Date.parse('2026-03-28T12:00:00Z'), 2);
  t.same(
    days.map((i) => [i.day, iso(i.start), iso(i.end)]),
    [
      ['2026-03-28', '2026-03-28T12:00:00.000Z', '2026-03-28T23:00:00.000Z'],
      ['2026-03-29', '2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z'],
    ],
    'whole days from Paris midnight to Paris midnight, 23 hours on the day the clocks go forward',
  );
  const turn = openIntervals(
    parseSendWindow('mon-fri 08:30-12:15 America/New_York'),
    Date.parse('2027-12-31T20:00:00Z'),
    5,
  );
  t.same(
    turn.map((i) => [i.day, iso(i.start)]),
    [
      ['2028-01-03', '2028-01-03T13:30:00.000Z'],
      ['2028-01-04', '2028-01-04T13:30:00.000Z'],
    ],
    'over a year end, in another zone',
  );
  const leap = openIntervals(parseSendWindow('always'), Date.parse('2028-02-28T12:00:00Z'), 3).map((i) => i.day);
  t.same(leap, ['2028-02-28', '2028-02-29', '2028-03-01']);
});

t.test(
  "a follow-up's day: the start of the n-th Paris working day after the day of the previous message",
  async (t) => {
    const after = (from: string, days: number) => iso(afterWorkingDays(Date.parse(from), days));
    t.equal(after('2026-11-27T17:00:00Z', 2), '2026-12-01T08:00:00.000Z', 'Friday evening + 2: Tuesday 9:00 Paris');
    t.equal(after('2026-11-27T23:30:00Z', 1), '2026-11-30T08:00:00.000Z', 'already Saturday in Paris: Monday');
    t.equal(after('2026-11-09T10:00:00Z', 2), '2026-11-12T08:00:00.000Z', 'Armistice day does not count');
    t.equal(after('2026-12-23T10:00:00Z', 3), '2026-12-29T08:00:00.000Z', 'Christmas and the weekend do not count');
    t.equal(after('2026-12-31T10:00:00Z', 1), '2027-01-04T08:00:00.000Z', 'New Year');
    t.equal(after('2027-03-25T10:00:00Z', 3), '2027-03-31T07:00:00.000Z', 'Easter Monday skipped, summer time begun');
    t.equal(after('2026-11-23T10:00:00Z', 30), '2027-01-06T08:00:00.000Z', 'thirty working days');
  },
);
