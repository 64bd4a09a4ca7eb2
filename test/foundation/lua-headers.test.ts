/**
 * Every script opens with a header in the grammar of src/redis/script-header.ts (docs/architecture.md,
 * "Script headers"), read by the loader; here, that the header tells the truth about its body (the
 * arguments it reads, the refusals it can answer), that the committed bindings are the ones the headers
 * give, and that nothing calls a script but its binding.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import t from 'tap';
import { BINDINGS_DIR, bindingFiles } from '../../src/redis/bindings.js';
import { readScripts, type ScriptFile } from '../../src/redis/scripts.js';
import { ROOT } from '../../src/paths.js';

const scripts = readScripts();
const file = (script: ScriptFile): string => relative(ROOT, script.path);

/** The codes a script's text (its includes inlined) can answer: `refuse('<code>'`, and the words an argument given to `refuse(ARGV[i]` may hold. */
function raisable(script: ScriptFile): Set<string> {
  const codes = new Set([...script.source.matchAll(/\brefuse\('([a-z_]+)'/g)].map((m) => m[1]!));
  for (const [, index] of script.source.matchAll(/\brefuse\(ARGV\[(\d+)\]/g)) {
    const arg = script.header.args.find((a) => a.position === Number(index));
    if (arg?.kind === 'value') for (const type of arg.types) if (type.startsWith("'")) codes.add(type.slice(1, -1));
  }
  return codes;
}

for (const script of scripts) {
  t.test(script.name, async (t) => {
    const own = readFileSync(script.path, 'utf8');
    const body = own.slice(own.indexOf(']]') + 2);
    const { args } = script.header;
    const keysUsed = [...body.matchAll(/KEYS\[(\d+)\]/g)].map((m) => Number(m[1]));
    t.same(
      keysUsed.filter((i) => i > script.numberOfKeys),
      [],
      'uses no KEYS beyond its count',
    );
    t.notMatch(body, /redis\.call\('TIME'\)/, 'never reads the server clock');

    // Arguments: each ARGV[n] the body reads is a line of the header; each value the header names is read.
    const fixed = args.filter((a) => typeof a.position === 'number' && a.kind === 'value').length;
    const firstList = args.find((a) => a.kind !== 'value');
    const counted = firstList?.kind === 'counted pairs' ? fixed + 1 : null;
    const read = new Set([...body.matchAll(/ARGV\[(\d+)\]/g)].map((m) => Number(m[1])));
    for (const index of read) {
      if (index > fixed && index !== counted) {
        t.fail(
          `${file(script)} reads ARGV[${index}], which its header does not name (its last is ARGV[${fixed}]): add an \`ARGV[${index}] <name>: <type>\` line`,
        );
      }
    }
    for (const arg of args) {
      if (arg.kind !== 'value' || arg.position === 'last') continue;
      t.ok(
        read.has(arg.position),
        `${file(script)}:${arg.line}: ARGV[${arg.position}] ${arg.name} is read by the script (else remove its line and its caller's value)`,
      );
    }
    if (args.some((a) => a.position === 'last')) t.match(body, /ARGV\[#ARGV\]/, 'reads its ARGV[#ARGV]');

    // Refusals: the header's Refuses line is exactly what the body and its includes can answer.
    const declared = new Set(script.header.refuses.map((r) => r.code));
    const codes = raisable(script);
    const missing = [...codes].filter((code) => !declared.has(code));
    const extra = [...declared].filter((code) => !codes.has(code));
    t.same(missing, [], `${file(script)}: the script can refuse with these codes: add them to its Refuses line`);
    t.same(extra, [], `${file(script)}: its Refuses line lists codes the script never answers: remove them`);
  });
}

t.test('the committed bindings are the ones the headers give (run `npm run bindings:generate`)', async (t) => {
  const files = bindingFiles(scripts);
  for (const [name, text] of files) {
    let committed = '';
    try {
      committed = readFileSync(join(BINDINGS_DIR, name), 'utf8');
    } catch {
      // Reported below as a missing file.
    }
    t.ok(
      committed === text,
      `actors/bindings/${name} is up to date with its headers (run \`npm run bindings:generate\`)`,
    );
  }
  const stale = readdirSync(BINDINGS_DIR).filter((name) => name.endsWith('.generated.ts') && !files.has(name));
  t.same(stale, [], 'no generated file without scripts (run `npm run bindings:generate`, which removes them)');
});

t.test('scripts are called through their bindings only', async (t) => {
  const sources = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.ts') && !name.endsWith('.generated.ts'))
      .map((name) => join(dir, name));
  // The generator writes the bindings' calls.
  const callers = [...sources('actors'), ...sources('src')].filter((path) => path !== 'src/redis/bindings.ts');
  const direct = callers.filter((path) => /scripts\.run\s*(<|\()/.test(readFileSync(join(ROOT, path), 'utf8')));
  t.same(direct, [], 'these files call Scripts.run: call the binding instead (actors/bindings/<actor>.generated.ts)');
});

const INCLUDES = 'lua/includes';
const includeNames = readdirSync(INCLUDES).map((name) => name.replace(/\.lua$/, ''));
const luaFiles = [
  ...scripts.map((script) => script.path),
  ...includeNames.map((name) => join(INCLUDES, `${name}.lua`)),
];

t.test('each include file defines one top-level function, named like the file', async (t) => {
  for (const name of includeNames) {
    const functions = [...readFileSync(join(INCLUDES, `${name}.lua`), 'utf8').matchAll(/^local function (\w+)/gm)].map(
      (m) => m[1],
    );
    t.same(functions, [name], `includes/${name}.lua`);
  }
});

t.test('a file that calls an include names it in its own include line', async (t) => {
  for (const path of luaFiles) {
    const own = readFileSync(path, 'utf8');
    const included = new Set([...own.matchAll(/^--- @include "(\w+)"/gm)].map((m) => m[1]));
    const called = includeNames.filter((name) => new RegExp(`(?<!function )\\b${name}\\(`).test(own));
    t.same(
      called.filter((name) => !included.has(name)),
      [],
      `${path} includes what it calls`,
    );
  }
});

t.test('a script given the journal answers a second run for the same line as the first (replayedLine)', async (t) => {
  // dropCode removes a line issueCode wrote: finding it there is its normal case. moveDays writes no
  // line: it moves old ones out.
  const writeNoLine = new Set(['space/dropCode', 'journal/moveDays']);
  for (const script of scripts.filter(
    (s) => s.header.keys.some((key) => key.name === 'journal') && !writeNoLine.has(s.name),
  )) {
    t.match(readFileSync(script.path, 'utf8'), /^--- @include "replayedLine"$/m, script.name);
  }
});
