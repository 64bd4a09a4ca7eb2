/**
 * Module hooks that load the project's TypeScript for the tests: type-stripping only (tsc's
 * transpileModule, no type check: `npm run typecheck` does that), cached on disk by content hash.
 * tap's own ts-node loader compiles every source file again in every test process, which was most
 * of `npm test`'s time; with the cache a test process starts in about a second.
 * Registered by ts-loader.mjs; only files of this checkout outside node_modules are handled here.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = pathToFileURL(join(fileURLToPath(new URL('../..', import.meta.url)), '/')).href;
const require = createRequire(import.meta.url);
const CACHE = join(tmpdir(), 'mailbox-ts-cache');
mkdirSync(CACHE, { recursive: true });

const TSCONFIG = readFileSync(new URL('tsconfig.json', ROOT), 'utf8');
const TS_VERSION = JSON.parse(readFileSync(require.resolve('typescript/package.json'), 'utf8')).version;

let typescript;
/** The project's options, but always ES modules out (the package is "type": "module"). */
function transpile(source, path) {
  typescript ??= require('typescript');
  const { compilerOptions } = typescript.parseConfigFileTextToJson('tsconfig.json', TSCONFIG).config;
  const options = {
    ...compilerOptions,
    module: 'ESNext',
    moduleResolution: 'Bundler',
    sourceMap: false,
    inlineSourceMap: true,
  };
  return typescript.transpileModule(source, { fileName: path, compilerOptions: options }).outputText;
}

const ours = (url) => url.startsWith(ROOT) && !url.includes('/node_modules/');

/**
 * `./clock.js` names `./clock.ts` in the sources (NodeNext style): a relative `.js` of ours whose `.ts`
 * twin exists is that twin, found without first failing the default resolution (a thrown
 * ERR_MODULE_NOT_FOUND per import: loading the test service's modules took 3.3 s of CPU, now 2.95).
 */
export async function resolve(specifier, context, next) {
  const parent = context.parentURL ?? '';
  if (ours(parent) && /^\.{1,2}\//.test(specifier) && specifier.endsWith('.js')) {
    const twin = new URL(specifier.slice(0, -3) + '.ts', parent);
    if (existsSync(twin)) return { url: twin.href, format: 'module', shortCircuit: true };
  }
  return next(specifier, context);
}

/** A source file of ours as an ES module: from the cache, or transpiled into it. */
export function compiled(path) {
  const source = readFileSync(path, 'utf8');
  const key = createHash('sha256').update(`${path}\0${TSCONFIG}\0${TS_VERSION}\0${source}`).digest('hex');
  const cached = join(CACHE, `${key}.js`);
  try {
    return readFileSync(cached, 'utf8');
  } catch {
    const output = transpile(source, path);
    // Parallel test processes may write the same entry: write aside, then rename (atomic).
    const aside = `${cached}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    writeFileSync(aside, output);
    renameSync(aside, cached);
    return output;
  }
}

export async function load(url, context, next) {
  if (!ours(url) || !/\.m?ts$/.test(url)) return next(url, context);
  return { format: 'module', source: compiled(fileURLToPath(url)), shortCircuit: true };
}
