import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './paths.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; license: string };

export const VERSION: string = pkg.version;
/** The SPDX identifier of the service's licence, as package.json declares it. */
export const LICENSE: string = pkg.license;
