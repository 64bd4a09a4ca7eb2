/** Time comes from one injectable clock so that windows, quotas and expiries are testable without sleeps. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to: tests set it to a Paris Monday morning and advance it. */
export class ManualClock implements Clock {
  constructor(private ms: number) {}
  now(): number {
    return this.ms;
  }
  set(at: number | string): void {
    this.ms = typeof at === 'number' ? at : Date.parse(at);
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

const DAY_MS = 86_400_000;
let lastDay = NaN;
let lastDayPrefix = '';
const twoDigits = (n: number): string => (n < 10 ? '0' : '') + n;

/**
 * ISO 8601 of an instant (as Date#toISOString). The day's part is kept from the last call and the time
 * of day written by hand: toISOString costs 0.7 µs, this 0.15 on instants of one day, and a page of
 * events or records writes hundreds of them (BENCHMARKS.md, "Events").
 */
export function iso(instant: number): string {
  // A fraction of a millisecond is cut toward zero, as Date does.
  const ms = Math.trunc(instant);
  const day = Math.floor(ms / DAY_MS);
  // Years outside 0000-9999 take toISOString's extended form.
  if (day !== lastDay) {
    if (ms < -62_167_219_200_000 || ms >= 253_402_300_800_000) return new Date(ms).toISOString();
    lastDay = day;
    lastDayPrefix = new Date(day * DAY_MS).toISOString().slice(0, 11);
  }
  let rest = ms - day * DAY_MS;
  const milliseconds = rest % 1000;
  rest = (rest - milliseconds) / 1000;
  const seconds = rest % 60;
  rest = (rest - seconds) / 60;
  const minutes = rest % 60;
  const hours = (rest - minutes) / 60;
  return `${lastDayPrefix}${twoDigits(hours)}:${twoDigits(minutes)}:${twoDigits(seconds)}.${milliseconds < 10 ? '00' : milliseconds < 100 ? '0' : ''}${milliseconds}Z`;
}
