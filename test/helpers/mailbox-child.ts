/**
 * bin/mailbox.js from the sources, for tests that run the command in its own process (bin/mailbox.js
 * loads the build under dist/). Run with the test process's own execArgv, so TypeScript loads the same way.
 */
import { runCli } from '../../src/cli/main.js';

const code = await runCli(process.argv.slice(2), {
  env: process.env,
  out: (line) => process.stdout.write(line + '\n'),
  err: (line) => process.stderr.write(line + '\n'),
});
process.exit(code);
