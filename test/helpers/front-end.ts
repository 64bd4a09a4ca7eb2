/** A second HTTP front end in its own process (test/helpers/front-end-child.ts), sharing only Redis with the test's. */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { testRedisTarget } from './redis.js';
import { toolCaller, type TestService } from './service.js';
import { CHILD_EXEC_ARGV } from './child.js';

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
  t.teardown(() => child.stdin!.end());
  const url = (await createInterface({ input: child.stdout! })[Symbol.asyncIterator]().next()).value as string;
  return { url, call: toolCaller(url) };
}
