/**
 * A delivery worker in its own process, for the crash tests: delivers what is due for one inbox, once,
 * then exits. MAILBOX_FAULT_AT makes it die at a step of the delivery (src/workers/send.ts).
 * Run with the test process's own execArgv, so TypeScript loads the same way.
 */
import { loadConfig } from '../../src/config.js';
import { transportFor } from '../../src/delivery/transports.js';
import { createLogger } from '../../src/log.js';
import { createRedis } from '../../src/redis/connect.js';
import { createRuntime } from '../../src/runtime.js';
import { composeRuntime } from '../../src/cli/compose.js';
import { deliverDue } from '../../src/workers/send.js';

const env = process.env;
const config = loadConfig(env);
const redis = createRedis({ url: env.CHILD_REDIS_URL || null, clusterNodes: config.redisClusterNodes });
const rt = composeRuntime(createRuntime(config, { redis, log: createLogger('error') }));
await deliverDue(rt, transportFor(rt), env.CHILD_SPACE!, env.CHILD_INBOX!);
process.exit(0);
