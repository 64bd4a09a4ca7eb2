import type { Runtime } from '../../src/runtime.js';

/**
 * The node options of a child process a test starts (a front end, a worker, a dying worker): the
 * project's TypeScript loader alone. tap's own hooks (its TypeScript import, mocks, process info) are
 * the test process's business; in a child they doubled its start (about 2 s of CPU more).
 */
export const CHILD_EXEC_ARGV: readonly string[] = process.execArgv.filter((arg) => arg.includes('ts-loader'));

/**
 * Makes a dying worker of `rt`: its first blob write lands (durable), then the process dies at once
 * (SIGKILL, no cleanup), before any record can point to the blob.
 */
export function dieAfterFirstPut(rt: Runtime): void {
  const blobs = rt.ports.blobs;
  rt.ports.blobs = {
    ...blobs,
    async put(spaceId, bytes) {
      const stored = await blobs.put(spaceId, bytes);
      process.kill(process.pid, 'SIGKILL');
      return stored;
    },
  };
}
