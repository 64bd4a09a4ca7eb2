/** `node --import=./test/helpers/ts-loader.mjs`: the tests' TypeScript loader (see ts-hooks.mjs). */
import { register } from 'node:module';

register('./ts-hooks.mjs', import.meta.url);
// Stack traces of a failing test point at the .ts lines (the hooks emit inline source maps).
process.setSourceMapsEnabled(true);
