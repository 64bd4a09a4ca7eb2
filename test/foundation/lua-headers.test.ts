/** Every script opens with a header naming each KEYS[i] and ARGV[i] it uses, and what it returns. */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { readScripts } from '../../src/redis/scripts.js';

for (const script of readScripts()) {
  t.test(script.name, async (t) => {
    const own = readFileSync(script.path, 'utf8');
    const header = /^--\[\[([\s\S]*?)\]\]/.exec(own)?.[1] ?? '';
    t.ok(header, 'opens with a --[[ ... ]] header');
    const body = own.slice(own.indexOf(']]') + 2);
    for (let i = 1; i <= script.numberOfKeys; i++) t.match(header, new RegExp(`KEYS\\[${i}\\] `), `KEYS[${i}] documented`);
    t.notMatch(header, new RegExp(`KEYS\\[${script.numberOfKeys + 1}\\]`), 'no more KEYS documented than the name says');
    const used = new Set([...body.matchAll(/ARGV\[(\d+)\]/g)].map((m) => Number(m[1])));
    for (const i of used) t.match(header, new RegExp(`ARGV\\[${i}\\] `), `ARGV[${i}] documented`);
    const keysUsed = [...body.matchAll(/KEYS\[(\d+)\]/g)].map((m) => Number(m[1]));
    t.ok(keysUsed.every((i) => i <= script.numberOfKeys), 'uses no KEYS beyond its count');
    t.match(header, /Returns /, 'documents its replies');
    t.notMatch(body, /redis\.call\('TIME'\)/, 'never reads the server clock');
  });
}

const INCLUDES = 'lua/includes';
const includeNames = readdirSync(INCLUDES).map((file) => file.replace(/\.lua$/, ''));
const luaFiles = [...readScripts().map((script) => script.path), ...includeNames.map((name) => join(INCLUDES, `${name}.lua`))];

t.test('each include file defines one top-level function, named like the file', async (t) => {
  for (const name of includeNames) {
    const functions = [...readFileSync(join(INCLUDES, `${name}.lua`), 'utf8').matchAll(/^local function (\w+)/gm)].map((m) => m[1]);
    t.same(functions, [name], `includes/${name}.lua`);
  }
});

t.test('a file that calls an include names it in its own include line', async (t) => {
  for (const path of luaFiles) {
    const own = readFileSync(path, 'utf8');
    const included = new Set([...own.matchAll(/^--- @include "(\w+)"/gm)].map((m) => m[1]));
    const called = includeNames.filter((name) => new RegExp(`(?<!function )\\b${name}\\(`).test(own));
    t.same(called.filter((name) => !included.has(name)), [], `${path} includes what it calls`);
  }
});

t.test('a script given the journal answers a second run for the same line as the first (replayedLine)', async (t) => {
  // dropCode removes a line issueCode wrote: finding it there is its normal case.
  for (const script of readScripts().filter((s) => s.keyNames.includes('journal') && s.name !== 'space/dropCode')) {
    t.match(readFileSync(script.path, 'utf8'), /^--- @include "replayedLine"$/m, script.name);
  }
});
