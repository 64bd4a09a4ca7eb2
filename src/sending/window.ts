/**
 * The sending window (decisions.md 4), parsed from its configuration text:
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
    if (from < 0 || to < from) throw new Error(`SEND_WINDOW: bad day range "${text}"`);
    return Array.from({ length: to - from + 1 }, (_, i) => from + i + 1);
  }
  return text.split(',').map((name) => {
    const index = DAY_NAMES.indexOf(name);
    if (index < 0) throw new Error(`SEND_WINDOW: unknown day "${name}"`);
    return index + 1;
  });
}

const minuteOf = (hhmm: string): number => {
  const [h, m] = hhmm.split(':').map(Number);
  return h! * 60 + m!;
};

export function parseSendWindow(spec: string): SendWindow {
  const text = spec.trim().toLowerCase();
  if (text === 'always') return { always: true, days: [1, 2, 3, 4, 5, 6, 7], startMinute: 0, endMinute: 1440, zone: 'Europe/Paris', holidays: null };
  const match = /^(\S+)\s+(\d{2}:\d{2})-(\d{2}:\d{2})\s+(\S+)(?:\s+holidays:(fr))?$/i.exec(spec.trim());
  if (!match) throw new Error(`SEND_WINDOW: cannot read "${spec}"`);
  const window: SendWindow = {
    always: false,
    days: parseDays(match[1]!.toLowerCase()),
    startMinute: minuteOf(match[2]!),
    endMinute: minuteOf(match[3]!),
    zone: match[4]!,
    holidays: match[5] ? 'fr' : null,
  };
  if (window.endMinute <= window.startMinute) throw new Error(`SEND_WINDOW: the window must end after it starts`);
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
