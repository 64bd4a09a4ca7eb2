import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './paths.js';

export const VERSION: string = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
