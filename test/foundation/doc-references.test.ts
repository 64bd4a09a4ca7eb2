/**
 * The docs, the README and the code's comments name files of this project (`lua/message/x-21.lua`,
 * `src/smtp/parse.ts`); a renamed or re-counted script must not leave them pointing nowhere.
 * CHANGELOG.md is history and may name what was true then. None of them cites a file outside the
 * repository: the contract they refer to is docs/contract.md.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );

const sources = ['README.md', 'BENCHMARKS.md', ...['docs', 'src', 'actors', 'lua'].flatMap(filesUnder)];
// A path of ours as the text names it (not the bench kit's, outside the repository); imports end in `.js` and are
// checked by the compiler.
const NAMED_PATH = /(?<![\w./])(?:src|actors|lua|bench|test)\/[\w./-]+\.(?:ts|lua|mjs|sh)\b/g;

t.test('every file the docs and comments name exists', async (t) => {
  const missing = sources.flatMap((source) =>
    [...readFileSync(source, 'utf8').matchAll(NAMED_PATH)]
      .map(([path]) => path)
      .filter((path) => !existsSync(path))
      .map((path) => `${source}: ${path}`),
  );
  t.same(missing, []);
});

t.test('every script named without its path exists', async (t) => {
  const scripts = new Set(filesUnder('lua').map((path) => path.slice('lua/'.length).replace(/(?:-\d+)?\.lua$/, '')));
  const SCRIPT_NAME = /`((?:[a-z]+)\/[a-z][A-Za-z]+)(?:-\d+)?`/g;
  const missing = sources.flatMap((source) =>
    [...readFileSync(source, 'utf8').matchAll(SCRIPT_NAME)]
      .map(([, name]) => name!)
      .filter((name) => !['tools/call', 'tools/list', 'application/json'].includes(name) && !scripts.has(name))
      .map((name) => `${source}: ${name}`),
  );
  t.same(missing, []);
});

t.test('the project stands alone: no text outside docs/ cites a contract file outside the repository', async (t) => {
  // Spelled in pieces, so that this file does not cite them either.
  const OUTSIDE = new RegExp(
    ['interface', 'decisions']
      .map((name) => `\\b${name}\\.md`)
      .concat(['\\.\\./shared/'])
      .join('|'),
  );
  const texts = [
    'README.md',
    'BENCHMARKS.md',
    'CHANGELOG.md',
    'Dockerfile',
    '.ci/run',
    ...['src', 'actors', 'lua', 'bench', 'test', 'clients', 'web'].flatMap(filesUnder),
  ];
  const citing = texts
    .filter((path) => !path.includes('node_modules') && !path.includes('__pycache__'))
    .filter((path) => OUTSIDE.test(readFileSync(path, 'utf8')));
  t.same(citing, [], 'docs/contract.md holds the contract');
});
