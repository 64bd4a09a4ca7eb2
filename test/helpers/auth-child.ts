/**
 * A second front end in its own process for the rate-limit test: authenticates a key N times against
 * the shared Redis (MBX_TEST_REDIS), at the instant MBX_TEST_NOW, and prints how many passed.
 */
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
