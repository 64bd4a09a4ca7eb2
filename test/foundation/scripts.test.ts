/**
 * The script loader: keys passed by their header names reach the script in KEYS order; the header
 * and include mistakes stop the load, named by file and line. Small Lua files in a temp dir.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'ioredis';
import t from 'tap';
import { Scripts, readScripts } from '../../src/redis/scripts.js';
import { FlatArguments } from '../../src/redis/pipeline.js';
import { testRedis } from '../helpers/redis.js';

/** A lua/ tree in a temp dir: `{ 'probe/echo-2.lua': source, 'includes/x.lua': source }`. */
function luaDir(files: Record<string, string>): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'mbx-lua-')), 'lua');
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), source);
  }
  mkdirSync(join(dir, 'includes'), { recursive: true });
  return dir;
}

const header = (keys: string[]): string => `--[[\n  Test script.\n${keys.map((k) => `  ${k}\n`).join('')}  Returns its keys.\n]]\n`;
// Same hash tag: the keys stay in one Cluster slot.
const ECHO = header(['KEYS[1] first    a key', 'KEYS[2] second   another']) + 'return cjson.encode({ keys = KEYS })\n';

t.test('keys by name are put in the header order', async (t) => {
  const scripts = new Scripts(await testRedis(), readScripts(luaDir({ 'probe/echo-2.lua': ECHO })));
  const byName = await scripts.run<{ keys: string[] }>('probe/echo', { second: '{t}:b', first: '{t}:a' }, []);
  t.same(byName.keys, ['{t}:a', '{t}:b']);
});

t.test('a missing, unknown or positional key is refused before Redis runs anything', async (t) => {
  const scripts = new Scripts(await testRedis(), readScripts(luaDir({ 'probe/echo-2.lua': ECHO })));
  await t.rejects(scripts.run('probe/echo', { first: '{t}:a' }, []), /probe\/echo: key second missing/);
  await t.rejects(scripts.run('probe/echo', { first: '{t}:a', second: '{t}:b', third: '{t}:c' }, []), /probe\/echo has no key named third \(first, second\)/);
  // The old positional form is gone: its indexes are unknown names (and the types refuse it).
  // @ts-expect-error an array is not keys by name
  await t.rejects(scripts.run('probe/echo', ['{t}:a', '{t}:b'], []), /probe\/echo has no key named 0/);
  await t.rejects(scripts.run('probe/none', {}, []), /unknown script probe\/none/);
});

t.test('a file not named <verbNoun>-<nkeys>.lua stops the load', async (t) => {
  t.throws(() => readScripts(luaDir({ 'probe/echo.lua': ECHO })), /lua\/probe\/echo\.lua: name must be <verbNoun>-<nkeys>\.lua/);
});

t.test('a header that does not name every key stops the load, with file and line', async (t) => {
  const cases: [string, string, RegExp][] = [
    ['a KEYS line missing', header(['KEYS[1] first']), /lua\/probe\/bad-2\.lua:5: header lacks a KEYS\[2\] <name> line/],
    ['a key named twice', header(['KEYS[1] first', 'KEYS[2] first']), /lua\/probe\/bad-2\.lua:4: key name first used twice/],
    ['an index given twice', header(['KEYS[1] first', 'KEYS[1] second']), /lua\/probe\/bad-2\.lua:4: KEYS\[1\] named twice/],
    ['more keys than the name', header(['KEYS[1] a', 'KEYS[2] b', 'KEYS[3] c']), /lua\/probe\/bad-2\.lua:5: KEYS\[3\] beyond the 2 keys/],
    ['no header', 'return 1\n', /lua\/probe\/bad-2\.lua:1: no --\[\[ \.\.\. \]\] header/],
  ];
  for (const [what, source, error] of cases) t.throws(() => readScripts(luaDir({ 'probe/bad-2.lua': source })), error, what);
});

t.test('the include resolver names a missing include and a cycle by file and line', async (t) => {
  const script = header([]) + '--- @include "a"\nreturn 1\n';
  t.throws(() => readScripts(luaDir({ 'probe/one-0.lua': script })), /lua\/probe\/one-0\.lua:5: include "a" not found/);
  const cycle = luaDir({
    'probe/one-0.lua': script,
    'includes/a.lua': '-- a\n--- @include "b"\nlocal function a() end\n',
    'includes/b.lua': '-- b\n--- @include "a"\nlocal function b() end\n',
  });
  t.throws(() => readScripts(cycle), /lua\/includes\/b\.lua:2: include cycle a -> b -> a/);
});

t.test('an include named twice is inlined once, nested ones too', async (t) => {
  const dir = luaDir({
    'probe/two-0.lua': header([]) + '--- @include "a"\n--- @include "b"\nreturn cjson.encode({ n = b() })\n',
    'includes/a.lua': 'local function a() return 1 end\n',
    'includes/b.lua': '--- @include "a"\nlocal function b() return a() + 1 end\n',
  });
  const [file] = readScripts(dir);
  t.equal(file!.source.match(/local function a\(/g)?.length, 1);
  const scripts = new Scripts(await testRedis(), [file!]);
  t.same(await scripts.run('probe/two', {}, []), { n: 2 });
});

t.test('a header ending with KEYS[<n+1> ..] takes a list of any length after its named keys; others refuse one', async (t) => {
  const TAIL = header(['KEYS[1] first    a key', 'KEYS[2 ..] rest  any number more']) + 'return cjson.encode({ keys = KEYS })\n';
  const scripts = new Scripts(await testRedis(), readScripts(luaDir({ 'probe/tail-1.lua': TAIL, 'probe/echo-2.lua': ECHO })));
  t.same(await scripts.run('probe/tail', { first: '{t}:a' }, [], ['{t}:b', '{t}:c']), { keys: ['{t}:a', '{t}:b', '{t}:c'] });
  t.same(await scripts.run('probe/tail', { first: '{t}:a' }, []), { keys: ['{t}:a'] }, 'an empty list');
  await t.rejects(scripts.run('probe/echo', { first: '{t}:a', second: '{t}:b' }, [], ['{t}:c']), /probe\/echo takes no keys beyond its 2/);
  const misplaced = header(['KEYS[1] first', 'KEYS[3 ..] rest']);
  t.throws(() => readScripts(luaDir({ 'probe/bad-1.lua': misplaced })), /lua\/probe\/bad-1\.lua:4: KEYS\[3 \.\.\] must follow the 1 keys of the file name/);
});

t.test('arguments given as flat are written as ioredis writes any list, numbers and strings alike', async (t) => {
  const values = ['sha', 3, '{t}:a', '{t}:b', '{t}:c', 'é, un texte\r\n', '', 42, '{"a":1}'];
  const flat = new FlatArguments();
  flat.push(...values);
  t.equal(new Command('evalsha', flat).toWritable({}), new Command('evalsha', [...values]).toWritable({}));
  // A script's arguments, its keys included, reach it in order.
  const scripts = new Scripts(await testRedis(), readScripts(luaDir({ 'probe/echo-2.lua': header(['KEYS[1] first    a key', 'KEYS[2] second   another']) + 'return cjson.encode({ keys = KEYS, args = ARGV })\n' })));
  t.same(await scripts.run('probe/echo', { first: '{t}:a', second: '{t}:b' }, ['x', 7, 'é']), { keys: ['{t}:a', '{t}:b'], args: ['x', '7', 'é'] });
});
