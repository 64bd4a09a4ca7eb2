/**
 * A second front end in its own process for the rate-limit test: connects to the shared Redis
 * (MBX_TEST_REDIS), says "ready", waits for a line on stdin, then authenticates a key N times at the
 * instant MBX_TEST_NOW and prints how many passed. Waiting for the word keeps the process's start-up
 * time (seconds on a loaded machine) out of the measured window.
 */
import { once } from 'node:events';
import { authenticate } from '../../actors/space.js';
import { ManualClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { createRedis } from '../../src/redis/connect.js';
import { createRuntime } from '../../src/runtime.js';
import { composeRuntime } from '../../src/cli/compose.js';

const env = process.env;
const rt = composeRuntime(
  createRuntime(loadConfig({ ...env, LOG_LEVEL: 'silent' }), {
    clock: new ManualClock(Number(env.MBX_TEST_NOW)),
    redis: createRedis(JSON.parse(env.MBX_TEST_REDIS!)),
  }),
);
await rt.redis.ping();
process.stdout.write('ready\n');
await once(process.stdin, 'data');
let passed = 0;
for (let i = 0; i < Number(env.MBX_TEST_CALLS); i++) {
  try {
    await authenticate(rt, env.MBX_TEST_KEY!);
    passed++;
  } catch {
    // rate_limited: counted by what did pass
  }
}
process.stdout.write(`${passed}\n`);
rt.redis.disconnect();
process.stdin.destroy();
