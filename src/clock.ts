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

let lastMs = NaN;
let lastIso = '';

/** ISO 8601 of an instant; the last one is kept, since a request writes its own instant several times. */
export function iso(ms: number): string {
  if (ms === lastMs) return lastIso;
  const out = new Date(ms).toISOString();
  lastMs = ms;
  lastIso = out;
  return out;
}
