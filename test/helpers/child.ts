/**
 * The node options of a child process a test starts (a front end, a worker, a dying worker): the
 * project's TypeScript loader alone. tap's own hooks (its TypeScript import, mocks, process info) are
 * the test process's business; in a child they doubled its start (about 2 s of CPU more).
 */
export const CHILD_EXEC_ARGV: readonly string[] = process.execArgv.filter((arg) => arg.includes('ts-loader'));
