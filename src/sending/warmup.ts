/**
 * Warm-up (docs/contract.md, Decision 4): a new inbox sends 5 a day its first week, 10 the second, 15 the third,
 * then the plan's daily maximum. Weeks count from the inbox's creation, by the injected clock.
 */
const STEPS = [5, 10, 15] as const;
const WEEK_MS = 7 * 24 * 3600 * 1000;

export interface Warmup {
  /** 1 for the first seven days after creation. */
  week: number;
  /** Today's daily quota: the current element of `steps`. */
  step: number;
  /** Daily quota of weeks 1, 2, 3, then from week 4 on; none above the plan's daily maximum. */
  steps: number[];
  finished: boolean;
}

export function warmup(createdAtMs: number, nowMs: number, dailyMax: number): Warmup {
  const steps = [...STEPS.map((s) => Math.min(s, dailyMax)), dailyMax];
  const week = Math.floor(Math.max(0, nowMs - createdAtMs) / WEEK_MS) + 1;
  const index = Math.min(week, steps.length) - 1;
  return { week, step: steps[index]!, steps, finished: week >= steps.length };
}
