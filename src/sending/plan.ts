/**
 * The departure plan handed to the queue script: the open intervals of the coming days, each with the
 * inbox's quota for that day (warm-up week by week, then the plan's daily maximum). The script picks
 * the earliest slot; everything that needs time zones and holidays is computed here, not in Lua.
 */
import type { Config } from '../config.js';
import { openIntervals, type DayInterval, type SendWindow } from './window.js';
import { boundedMemo } from '../memo.js';
import { warmup } from './warmup.js';

/** How far ahead a queue may plan: a full queue (10 x the daily maximum) at warm-up pace fits. */
const HORIZON_DAYS = 62;

const HOUR_MS = 3600_000;

/**
 * Results that depend on the send window and the hour, kept per window (a config has one; tests build
 * many): each is computed once an hour, not at every send.
 */
function memo<T>(max: number) {
  const byWindow = new WeakMap<SendWindow, (key: string, build: () => T) => T>();
  return (window: SendWindow, key: string, build: () => T): T => {
    let cache = byWindow.get(window);
    if (!cache) byWindow.set(window, (cache = boundedMemo<string, T>(max)));
    return cache(key, build);
  };
}

const intervalsMemo = memo<DayInterval[]>(32);
const textsMemo = memo<string>(10_000);

/** The window's intervals from the start of the current hour. */
function intervalsFrom(config: Config, from: number, anyTime: boolean): DayInterval[] {
  const hour = Math.floor(from / HOUR_MS) * HOUR_MS;
  return intervalsMemo(config.sendWindow, `${anyTime ? 1 : 0}|${hour}`, () =>
    openIntervals(config.sendWindow, hour, HORIZON_DAYS, anyTime),
  );
}

/**
 * The intervals a slot may be found in, no more than `capacity` departures' worth (past that the queue
 * cap refuses anyway, and a shorter list is less for every send to carry to Redis), in the form
 * lua/includes/findSlot.lua reads: "<YYYY-MM-DD> <start> <end> <quota>,..." (its pattern
 * matches the day's exact shape, so the comma never becomes part of a day). Intervals are kept from the
 * start of the hour of `from`, unclipped: the script skips what ended and starts no earlier than its
 * own `earliest`. So the text is built once per hour and inbox, not at every send.
 */
export function plannedIntervals(
  config: Config,
  createdAtMs: number,
  dailyMax: number,
  from: number,
  anyTime: boolean,
  capacity: number,
): string {
  const hour = Math.floor(from / HOUR_MS) * HOUR_MS;
  return textsMemo(config.sendWindow, `${hour}|${anyTime ? 1 : 0}|${createdAtMs}|${dailyMax}|${capacity}`, () => {
    const out: string[] = [];
    let total = 0;
    for (const interval of intervalsFrom(config, from, anyTime)) {
      if (interval.end <= hour) continue;
      const quota = warmup(createdAtMs, interval.start, dailyMax).step;
      out.push(`${interval.day} ${interval.start} ${interval.end} ${quota}`);
      total += quota;
      if (total >= capacity) break;
    }
    return out.join(',');
  });
}
