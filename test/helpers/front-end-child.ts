/**
 * A second HTTP front end in its own process, on the test file's Redis (MBX_TEST_REDIS) with the
 * environment given: prints its URL, serves until its stdin closes. Shares nothing with the test
 * process but Redis, as two front ends of a deployment do.
 */
import { once } from 'node:events';
import { composeRuntime } from '../../src/cli/compose.js';
import { loadConfig } from '../../src/config.js';
import { startHttp } from '../../src/http/server.js';
import { createRedis } from '../../src/redis/connect.js';
import { createRuntime } from '../../src/runtime.js';

const rt = composeRuntime(
  createRuntime(loadConfig({ ...process.env, LOG_LEVEL: 'error', PORT: '0' }), {
    redis: createRedis(JSON.parse(process.env.MBX_TEST_REDIS!)),
  }),
);
const http = await startHttp(rt, { port: 0, host: '127.0.0.1' });
process.stdout.write(`http://127.0.0.1:${http.port}\n`);
process.stdin.resume();
await once(process.stdin, 'end');
await http.close(0);
rt.redis.disconnect();
process.exit(0);
