/**
 * A worker moving one thread into history that dies (SIGKILL, no cleanup) right after the history
 * document's write, before the script that drops Redis's records: the crash case of
 * docs/architecture.md, "History". Its clock is the test's (CHILD_NOW).
 */
import { moveThread } from '../../actors/history.js';
import { ManualClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { createRedis } from '../../src/redis/connect.js';
import { createRuntime } from '../../src/runtime.js';
import { composeRuntime } from '../../src/cli/compose.js';
import { dieAfterFirstPut } from './child.js';

const env = process.env;
const config = loadConfig(env);
const redis = createRedis({ url: env.CHILD_REDIS_URL || null, clusterNodes: config.redisClusterNodes });
const clock = new ManualClock(Number(env.CHILD_NOW));
const rt = composeRuntime(createRuntime(config, { redis, clock, log: createLogger('error') }));
dieAfterFirstPut(rt);
await moveThread(rt, env.CHILD_SPACE!, env.CHILD_THREAD!);
process.exit(0);
