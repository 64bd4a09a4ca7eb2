/**
 * tap's `before` program (.taprc): every TypeScript source of the checkout put into the tests' cache
 * (ts-hooks.mjs) by one process before any test file starts. On a new machine (CI's clean clone) the
 * first test processes otherwise compiled the same files each, all at once, and their children again.
 * With the cache already full it only reads and hashes the files (under half a second).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compiled } from './ts-hooks.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
for (const folder of ['actors', 'src', 'test']) {
  for (const entry of readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })) {
    if (/\.m?ts$/.test(entry) && !/\.d\.m?ts$/.test(entry)) compiled(join(root, folder, entry));
  }
}
