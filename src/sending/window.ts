import { DateTime } from 'luxon';

/**
 * The sending window (docs/contract.md, Decision 4), parsed from its configuration text:
 * `always`, or `<days> <HH:MM>-<HH:MM> <zone> [holidays:fr]` with days `mon-fri` or `mon,wed,fri`.
 */
export interface SendWindow {
  always: boolean;
  /** ISO weekdays, 1 = Monday. */
  days: number[];
  startMinute: number;
  endMinute: number;
  zone: string;
  holidays: 'fr' | null;
}

const DAY_NAMES = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const DAY_WORDS = ['lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi', 'dimanche'];

function parseDays(text: string): number[] {
  const range = /^([a-z]{3})-([a-z]{3})$/.exec(text);
  if (range) {
    const from = DAY_NAMES.indexOf(range[1]!);
    const to = DAY_NAMES.indexOf(range[2]!);
    if (from < 0 || to < from) throw new Error(`plage de jours illisible « ${text} » (mon-fri, par exemple)`);
    return Array.from({ length: to - from + 1 }, (_, i) => from + i + 1);
  }
  return text.split(',').map((name) => {
    const index = DAY_NAMES.indexOf(name);
    if (index < 0) throw new Error(`jour inconnu « ${name} » (mon, tue, wed, thu, fri, sat, sun)`);
    return index + 1;
  });
}

const minuteOf = (hhmm: string): number => {
  const [h, m] = hhmm.split(':').map(Number);
  return h! * 60 + m!;
};

/** A SEND_WINDOW value; what it cannot read is thrown in French words, without the variable's name (src/config.ts adds it). */
export function parseSendWindow(spec: string): SendWindow {
  const text = spec.trim().toLowerCase();
  if (text === 'always')
    return {
      always: true,
      days: [1, 2, 3, 4, 5, 6, 7],
      startMinute: 0,
      endMinute: 1440,
      zone: 'Europe/Paris',
      holidays: null,
    };
  const match = /^(\S+)\s+(\d{2}:\d{2})-(\d{2}:\d{2})\s+(\S+)(?:\s+holidays:(fr))?$/i.exec(spec.trim());
  if (!match) throw new Error('forme non reconnue');
  const window: SendWindow = {
    always: false,
    days: parseDays(match[1]!.toLowerCase()),
    startMinute: minuteOf(match[2]!),
    endMinute: minuteOf(match[3]!),
    zone: match[4]!,
    holidays: match[5] ? 'fr' : null,
  };
  if (window.endMinute <= window.startMinute) throw new Error('la fenêtre doit finir après son début');
  return window;
}

const hourWords = (minute: number): string => {
  const h = Math.floor(minute / 60);
  const m = minute % 60;
  return m ? `${h} h ${String(m).padStart(2, '0')}` : `${h} h`;
};

function dayWords(days: number[]): string {
  const contiguous = days.every((d, i) => i === 0 || d === days[i - 1]! + 1);
  if (contiguous && days.length > 2) return `du ${DAY_WORDS[days[0]! - 1]} au ${DAY_WORDS[days[days.length - 1]! - 1]}`;
  return `le ${days.map((d) => DAY_WORDS[d - 1]).join(', ')}`;
}

/** "du lundi au vendredi, de 9 h à 18 h (heure de Paris), hors jours fériés". */
export function describeSendWindow(window: SendWindow): string {
  if (window.always) return 'à toute heure, tous les jours';
  const zone = window.zone === 'Europe/Paris' ? 'heure de Paris' : `heure de ${window.zone}`;
  const holidays = window.holidays ? ', hors jours fériés' : '';
  return `${dayWords(window.days)}, de ${hourWords(window.startMinute)} à ${hourWords(window.endMinute)} (${zone})${holidays}`;
}

/** Easter Sunday (Gregorian, anonymous algorithm), as month and day. */
function easter(year: number): { month: number; day: number } {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  return { month, day: ((h + l - 7 * m + 114) % 31) + 1 };
}

const holidayCache = new Map<number, Set<string>>();

/** French public holidays of a year (metropolitan list), as YYYY-MM-DD. */
export function frenchHolidays(year: number): Set<string> {
  let days = holidayCache.get(year);
  if (days) return days;
  const sunday = DateTime.fromObject({ year, ...easter(year) }, { zone: 'UTC' });
  const movable = [1, 39, 50].map((offset) => sunday.plus({ days: offset }).toISODate()!);
  const fixed = ['01-01', '05-01', '05-08', '07-14', '08-15', '11-01', '11-11', '12-25'].map((md) => `${year}-${md}`);
  days = new Set([...fixed, ...movable]);
  holidayCache.set(year, days);
  return days;
}

export interface DayInterval {
  /** The calendar day in the window's zone (quotas count per day). */
  day: string;
  start: number;
  end: number;
}

/**
 * A calendar day as the UTC midnight of its date: days are counted, their weekdays and ISO dates read,
 * without a zone; only a wall-clock time of a day asks the zone (instantOf). Luxon's calendar
 * arithmetic in a zone (`plus`, `startOf`) costs tens of microseconds a step: a day by day walk of
 * 62 days in it took milliseconds (BENCHMARKS.md, "Campaigns").
 */
const DAY_MS = 86_400_000;
const MINUTES_A_DAY = 1440;

/** The calendar day, in `zone`, of an instant. */
function calendarDay(ms: number, zone: string): number {
  const { year, month, day } = DateTime.fromMillis(ms, { zone });
  return Date.UTC(year, month - 1, day);
}

const isoDay = (day: number): string => new Date(day).toISOString().slice(0, 10);

/** ISO weekday of a calendar day, 1 = Monday. */
const weekdayOf = (day: number): number => ((new Date(day).getUTCDay() + 6) % 7) + 1;

/** The instant of a wall-clock minute of a calendar day in `zone` (MINUTES_A_DAY: the next day's midnight). */
function instantOf(day: number, minute: number, zone: string): number {
  const date = new Date(day + Math.floor(minute / MINUTES_A_DAY) * DAY_MS);
  const wall = minute % MINUTES_A_DAY;
  return DateTime.fromObject(
    {
      year: date.getUTCFullYear(),
      month: date.getUTCMonth() + 1,
      day: date.getUTCDate(),
      hour: Math.floor(wall / 60),
      minute: wall % 60,
    },
    { zone },
  ).toMillis();
}

/** Whether a window opens at all on a calendar day: its weekdays, less the holidays it skips. */
const opensOn = (window: SendWindow, day: number): boolean =>
  window.days.includes(weekdayOf(day)) &&
  !(window.holidays === 'fr' && frenchHolidays(new Date(day).getUTCFullYear()).has(isoDay(day)));

/**
 * The open intervals of the next `days` calendar days, from `from` on (the current one clipped).
 * `anyTime` opens whole days (a reply inside a conversation leaves outside the window; quotas still
 * count per day). Times are wall-clock times of each day: 9:00 stays 9:00 on a summer-time Sunday.
 */
export function openIntervals(window: SendWindow, from: number, days: number, anyTime = false): DayInterval[] {
  const out: DayInterval[] = [];
  const whole = window.always || anyTime;
  const first = calendarDay(from, window.zone);
  // Whole days follow each other: a day's end is the next one's start.
  let midnight: number | null = null;
  for (let i = 0; i < days; i++) {
    const day = first + i * DAY_MS;
    if (!whole && !opensOn(window, day)) continue;
    const start = whole
      ? (midnight ?? instantOf(day, 0, window.zone))
      : instantOf(day, window.startMinute, window.zone);
    const end = instantOf(day, whole ? MINUTES_A_DAY : window.endMinute, window.zone);
    midnight = end;
    if (end <= from) continue;
    out.push({ day: isoDay(day), start: Math.max(start, from), end });
  }
  return out;
}

/** Paris working days: Monday to Friday, French public holidays excluded (a campaign's follow-ups count them). */
const PARIS_WORKING_DAYS = parseSendWindow('mon-fri 09:00-18:00 Europe/Paris holidays:fr');

/**
 * When a follow-up is due: the start (9:00, Paris) of the `days`-th working day after the day of
 * `fromMs` (docs/contract.md, Decision 7: "after_days Paris working days after the previous message").
 */
export function afterWorkingDays(fromMs: number, days: number): number {
  let day = calendarDay(fromMs, PARIS_WORKING_DAYS.zone);
  for (let counted = 0; counted < days;) {
    day += DAY_MS;
    if (opensOn(PARIS_WORKING_DAYS, day)) counted++;
  }
  return instantOf(day, PARIS_WORKING_DAYS.startMinute, PARIS_WORKING_DAYS.zone);
}

const byMinute = new WeakMap<SendWindow, { minute: number; days: number; intervals: DayInterval[] }>();

/**
 * openIntervals(window, now, days), computed once a minute per window and clipped at `now`: the same
 * intervals, since a minute never spans two calendar days. The delivery worker asks at every departure,
 * and luxon's arithmetic over 15 days cost a departure about as much as composing its MIME message.
 */
export function openIntervalsAt(window: SendWindow, now: number, days: number): DayInterval[] {
  const minute = now - (now % 60_000);
  let cached = byMinute.get(window);
  if (cached?.minute !== minute || cached.days !== days) {
    cached = { minute, days, intervals: openIntervals(window, minute, days) };
    byMinute.set(window, cached);
  }
  return cached.intervals
    .filter((interval) => interval.end > now)
    .map((interval) => (interval.start < now ? { ...interval, start: now } : interval));
}
