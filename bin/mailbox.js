#!/usr/bin/env node
// The package's command (built sources under dist/: `npm run build`, done by `npm start`).
import { runCli } from '../dist/src/cli/main.js';

const code = await runCli(process.argv.slice(2), {
  env: process.env,
  out: (line) => process.stdout.write(line + '\n'),
  err: (line) => process.stderr.write(line + '\n'),
});
process.exit(code);
