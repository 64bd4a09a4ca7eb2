/** The operator's CLI run in-process against the test file's Redis, as `mailbox ...` would run it. */
import { runCli } from '../../src/cli/main.js';
import { testRedisTarget } from './redis.js';

export async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const target = await testRedisTarget();
  const env: Record<string, string> = target.clusterNodes
    ? { REDIS_CLUSTER_NODES: target.clusterNodes.map((n) => `${n.host}:${n.port}`).join(','), LOG_LEVEL: 'error' }
    : { REDIS_URL: target.url!, LOG_LEVEL: 'error' };
  const { code, lines, err } = await runCollecting(argv, env);
  return { code, out: lines.join('\n'), err };
}

/** `mailbox <argv>` in-process with this environment: its exit code, the lines it printed, its errors. */
export async function runCollecting(
  argv: string[],
  env: Record<string, string>,
  signal?: AbortSignal,
): Promise<{ code: number; lines: string[]; err: string }> {
  const lines: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { env, out: (l) => lines.push(l), err: (l) => err.push(l), signal });
  return { code, lines, err: err.join('\n') };
}
