/**
 * `mailbox serve [--role all|http|smtp|worker]` runs the service (src/cli/serve.ts; `--dev`: the
 * development mode, src/cli/dev.ts); `mailbox admin ...` is the operator's CLI (docs/contract.md, Decision 8,
 * src/cli/admin.ts), reading the same environment; `mailbox call` and `mailbox tail` are the user's,
 * over HTTP (src/cli/user.ts). A command loads its own modules: `mailbox call` does not load the
 * service (BENCHMARKS.md, "Starting a process").
 */
import type { CliIo } from './io.js';
import { USAGE } from './usage.js';

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [command, ...args] = argv;
  try {
    if (command === 'serve') return await (await import('./serve.js')).serve(args, io);
    if (command === 'admin') return await (await import('./admin.js')).admin(args, io);
    if (command === 'call') return await (await import('./user.js')).callCommand(args, io);
    if (command === 'tail') return await (await import('./user.js')).tailCommand(args, io);
    io.err(USAGE);
    return 2;
  } catch (error) {
    io.err(error instanceof Error ? error.message : String(error));
    return 1;
  }
}
