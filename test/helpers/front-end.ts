/**
 * Other HTTP front ends in their own processes, sharing only Redis with the test's: a light one
 * (test/helpers/front-end-child.ts) or `mailbox serve --role http` itself (test/helpers/mailbox-child.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { testRedisTarget } from './redis.js';
import { toolCaller, type TestService } from './service.js';
import { CHILD_EXEC_ARGV } from './child.js';
import { chooseEngine } from '../../src/http/engine.js';

/** Whether a uWS build loads on this Node (not on Node 24). */
export const uwsLoadsHere = chooseEngine('auto').warning === null;

/** uWS where one of its builds loads; elsewhere node:http stands in. */
const engineHere = (engine: 'uws' | 'node'): 'uws' | 'node' => (engine === 'uws' && !uwsLoadsHere ? 'node' : engine);

export interface FrontEnd {
  url: string;
  call: TestService['call'];
}

/** Started with `env` (give it the same WORKSPACE_INDEX as the test's service); stopped when the file ends. */
export async function otherFrontEnd(env: Record<string, string>): Promise<FrontEnd> {
  const script = fileURLToPath(new URL('./front-end-child.ts', import.meta.url));
  const child = spawn(process.execPath, [...CHILD_EXEC_ARGV, script], {
    env: { ...process.env, ...env, MBX_TEST_REDIS: JSON.stringify(await testRedisTarget()) },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  t.teardown(() => child.stdin.end());
  const url = (await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next()).value as string;
  return { url, call: toolCaller(url) };
}

export interface ServedFrontEnd {
  url: string;
  process: ChildProcess;
  /** Its log lines so far (JSON lines on stderr, LOG_LEVEL info). */
  logs(): string;
}

/**
 * `mailbox serve --role <role>` on `engine` (node:http when no uWS build loads here), on the file's
 * Redis, with `env` besides; killed when the file ends. `url`: '' for the smtp role.
 */
export async function servedFrontEnd(
  engine: 'uws' | 'node',
  env: Record<string, string> = {},
  role: 'http' | 'smtp' = 'http',
): Promise<ServedFrontEnd> {
  const target = await testRedisTarget();
  const child = fileURLToPath(new URL('./mailbox-child.ts', import.meta.url));
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    LOG_LEVEL: 'info',
    HTTP_ENGINE: engineHere(engine),
    ...env,
  };
  delete childEnv.REDIS_URL;
  delete childEnv.REDIS_CLUSTER_NODES;
  if (target.url) childEnv.REDIS_URL = target.url;
  else childEnv.REDIS_CLUSTER_NODES = target.clusterNodes!.map((n) => `${n.host}:${n.port}`).join(',');
  const proc = spawn(process.execPath, [...CHILD_EXEC_ARGV, child, 'serve', '--role', role], {
    env: childEnv,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  t.teardown(() => void proc.kill('SIGKILL'));
  let err = '';
  const url = await new Promise<string>((resolve, reject) => {
    proc.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const running = /"msg":"mailbox running".*?"http":(?:"(http:\/\/[^"]+)"|null)/.exec(err);
      if (running) resolve(running[1] ?? '');
    });
    proc.once('exit', (code) => reject(new Error(`serve --role ${role} exited (${code}): ${err}`)));
  });
  return { url, process: proc, logs: () => err };
}
