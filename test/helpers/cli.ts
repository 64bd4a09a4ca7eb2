/** The operator's CLI run in-process against the test file's Redis, as `mailbox ...` would run it. */
import { runCli } from '../../src/cli/main.js';
import { testRedisTarget } from './redis.js';

export async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const target = await testRedisTarget();
  const env = target.clusterNodes
    ? { REDIS_CLUSTER_NODES: target.clusterNodes.map((n) => `${n.host}:${n.port}`).join(','), LOG_LEVEL: 'error' }
    : { REDIS_URL: target.url!, LOG_LEVEL: 'error' };
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { env, out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}
