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

export const iso = (ms: number): string => new Date(ms).toISOString();
