import { Command, type Pipeline } from 'ioredis';
import { timeRedis } from '../metrics.js';
import type { RedisClient } from './connect.js';

/**
 * Runs the queued commands in one round trip and answers their values in order. A failed command
 * throws rather than reading as an absent value. One space's keys only: one slot, Cluster-safe.
 */
export async function execAll<T = unknown>(pipeline: ReturnType<RedisClient['pipeline']>): Promise<T[]> {
  return ((await timeRedis('pipeline', () => pipeline.exec())) ?? []).map(([error, value]) => {
    if (error) throw error;
    return value as T;
  });
}

/**
 * A command's arguments that are already flat. ioredis's Command flattens the list it is given with
 * `Array.prototype.flat`, which V8 runs element by element through generic property reads: 12.5 µs
 * for send_email's 175 script arguments, against 0.8 µs when the list says it is flat (BENCHMARKS.md,
 * "Node's own work a send"). Were ioredis to flatten otherwise, this would only cost its speed back:
 * the command written is the same (test/foundation/scripts.test.ts).
 */
export class FlatArguments extends Array<string | number> {
  override flat<A, D extends number = 1>(this: A): FlatArray<A, D>[] {
    return this as unknown as FlatArray<A, D>[];
  }
}

/**
 * Queues `name` with its arguments as one flat list (FlatArguments), its reply as strings: for the long
 * commands of a page's reads (an HMGET of 17 fields: 4 µs to queue through ioredis's method, 2 this way).
 */
export function queueFlat(
  pipeline: ReturnType<RedisClient['pipeline']>,
  name: string,
  args: readonly (string | number)[],
): void {
  const list = new FlatArguments();
  list.push(...args);
  // Every pipeline ioredis makes is a Pipeline; its chainable type leaves sendCommand out.
  (pipeline as unknown as Pipeline).sendCommand(new Command(name, list, { replyEncoding: 'utf8' }));
}
