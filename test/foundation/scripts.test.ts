/**
 * The script loader and the bindings generator: a binding puts keys and arguments given by name on the
 * wire in the header's order; header, include and reply-type mistakes stop the load or the generator,
 * named by file and line; a refusal the header does not list is an error. Small Lua files in a temp dir.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Command } from 'ioredis';
import t from 'tap';
import ts from 'typescript';
import { MailboxError } from '../../src/errors.js';
import { bindingFiles } from '../../src/redis/bindings.js';
import { Scripts, readScripts, type ScriptFile } from '../../src/redis/scripts.js';
import { FlatArguments } from '../../src/redis/pipeline.js';
import { testRedis } from '../helpers/redis.js';

/** A lua/ tree in a temp dir: `{ 'probe/echo-2.lua': source, 'includes/x.lua': source }`. */
function luaDir(files: Record<string, string>): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'mbx-lua-')), 'lua');
  t.teardown(() => rmSync(join(dir, '..'), { recursive: true, force: true }));
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), source);
  }
  mkdirSync(join(dir, 'includes'), { recursive: true });
  return dir;
}

const header = (lines: string[], returns = 'Returns { keys: string[], args: string[] }'): string =>
  `--[[\n  Test script.\n${[...lines, returns].map((line) => `  ${line}\n`).join('')}]]\n`;
const ECHO_BODY = 'return cjson.encode({ keys = KEYS, args = ARGV })\n';

/** The binding module the generator writes for a lua dir's scripts, loaded (its imports are types only). */
async function bindingsOf(
  files: ScriptFile[],
  actor: string,
  shapes: Set<string> = new Set(),
): Promise<Record<string, (...a: unknown[]) => Promise<unknown>>> {
  const text = bindingFiles(files, shapes).get(`${actor}.generated.ts`)!;
  const js = ts.transpileModule(text, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const path = join(mkdtempSync(join(tmpdir(), 'mbx-binding-')), `${actor}.mjs`);
  t.teardown(() => rmSync(join(path, '..'), { recursive: true, force: true }));
  writeFileSync(path, js);
  return import(pathToFileURL(path).href);
}

t.test('a binding puts keys and arguments given by name in the header order, flat', async (t) => {
  const source =
    header([
      'KEYS[1] first    a key',
      'KEYS[2] second   another',
      'KEYS[3 ..] rest  any number more',
      'ARGV[1] count: number        a number',
      "ARGV[2] mode: 'a' | 'b'      one of two words",
      'ARGV[3] on: flag             a flag',
      'ARGV[4] off: flag            another',
      'ARGV[5 ..] fields: counted pairs  field/value pairs after their number',
      'ARGV[..] more: pairs         pairs up to the last argument',
      'ARGV[#ARGV] last: string     the last one',
    ]) + ECHO_BODY;
  const dir = luaDir({ 'probe/echo-2.lua': source });
  const files = readScripts(dir);
  const probe = await bindingsOf(files, 'probe');
  const scripts = new Scripts(await testRedis(), files);
  // Same hash tag: the keys stay in one Cluster slot.
  const reply = await probe.echo!(
    scripts,
    { second: '{t}:b', rest: ['{t}:c', '{t}:d'], first: '{t}:a' },
    {
      last: 'é',
      more: ['x', 'y'],
      fields: ['f', 'v', 'g', 2],
      off: false,
      on: true,
      mode: 'b',
      count: 7,
    },
  );
  t.same(reply, {
    keys: ['{t}:a', '{t}:b', '{t}:c', '{t}:d'],
    args: ['7', 'b', '1', '0', '2', 'f', 'v', 'g', '2', 'x', 'y', 'é'],
  });
  t.same(
    await probe.echo!(
      scripts,
      { first: '{t}:a', second: '{t}:b', rest: [] },
      { last: '', more: [], fields: [], off: true, on: false, mode: 'a', count: 0 },
    ),
    {
      keys: ['{t}:a', '{t}:b'],
      args: ['0', 'a', '0', '1', '0', ''],
    },
    'empty lists',
  );
});

t.test('a script without keys or arguments takes neither', async (t) => {
  const dir = luaDir({
    'probe/none-0.lua': header([], 'Returns { n: number }') + 'return cjson.encode({ n = #KEYS + #ARGV })\n',
  });
  const files = readScripts(dir);
  const probe = await bindingsOf(files, 'probe');
  t.same(await probe.none!(new Scripts(await testRedis(), files)), { n: 0 });
  t.match(
    bindingFiles(files, new Set()).get('probe.generated.ts')!,
    /export function none\(scripts: Scripts\): Promise<NoneReply>/,
  );
});

t.test('a refusal the header lists is a MailboxError; one it does not list is an error naming the file', async (t) => {
  const refuser = (refuses: string) =>
    header(['ARGV[1] code: string  the code to answer'], `Returns { ok: true }\n  ${refuses}`) +
    'return cjson.encode({ error = ARGV[1] })\n';
  const dir = luaDir({ 'probe/refuse-0.lua': refuser('Refuses not_found | queue_full { retry_after_seconds }') });
  const scripts = new Scripts(await testRedis(), readScripts(dir));
  const refusal = await scripts.run('probe/refuse', [], ['queue_full']).catch((error: unknown) => error);
  t.ok(refusal instanceof MailboxError && refusal.code === 'queue_full', 'a MailboxError of the code');
  await t.rejects(
    scripts.run('probe/refuse', [], ['domain_limit']),
    /probe\/refuse refused with domain_limit, which its header's Refuses line does not list: add it there \(.*lua\/probe\/refuse-0\.lua\)/,
  );
  await t.rejects(
    scripts.run('probe/refuse', [], ['no_such_code']),
    /probe\/refuse answered unknown code no_such_code/,
  );
  await t.rejects(scripts.run('probe/none', [], []), /unknown script probe\/none/);
});

t.test('a file not named <verbNoun>-<nkeys>.lua stops the load', async (t) => {
  t.throws(
    () => readScripts(luaDir({ 'probe/echo.lua': header([]) })),
    /lua\/probe\/echo\.lua: name must be <verbNoun>-<nkeys>\.lua/,
  );
});

t.test('a header that breaks the grammar stops the load, with file and line and what to write', async (t) => {
  const cases: [string, string, RegExp][] = [
    [
      'a KEYS line missing',
      header(['KEYS[1] first']),
      /lua\/probe\/bad-2\.lua:5: header lacks a KEYS\[2\] <name> line/,
    ],
    [
      'a key named twice',
      header(['KEYS[1] first', 'KEYS[2] first']),
      /lua\/probe\/bad-2\.lua:4: key name first used twice/,
    ],
    [
      'an index given twice',
      header(['KEYS[1] first', 'KEYS[1] second']),
      /lua\/probe\/bad-2\.lua:4: KEYS\[1\] named twice/,
    ],
    [
      'more keys than the name',
      header(['KEYS[1] a', 'KEYS[2] b', 'KEYS[3] c']),
      /lua\/probe\/bad-2\.lua:5: KEYS\[3\] beyond the 2 keys/,
    ],
    [
      'a misplaced key list',
      header(['KEYS[1] a', 'KEYS[2] b', 'KEYS[4 ..] rest']),
      /lua\/probe\/bad-2\.lua:5: KEYS\[4 \.\.\] must follow the 2 keys of the file name/,
    ],
    ['no header', 'return 1\n', /lua\/probe\/bad-2\.lua:1: no --\[\[ \.\.\. \]\] header/],
  ];
  const keys = ['KEYS[1] a', 'KEYS[2] b'];
  const args: [string, string[], RegExp][] = [
    [
      'an argument without name nor type',
      ['ARGV[1] now (ms)'],
      /:5: ARGV\[1\] must read `ARGV\[i\] <name>: <type> {2}<explanation>`/,
    ],
    ['an unknown type', ['ARGV[1] now: ms  now'], /:5: ARGV\[1\] now: unknown type "ms"; write `ARGV\[i\]/],
    ['two arguments on a line', ['ARGV[1] a: string  x   ARGV[2] b: string  y'], /:5: one ARGV a line/],
    ['an index out of order', ['ARGV[2] a: string'], /:5: ARGV\[2\] out of order: ARGV\[1\] comes next/],
    ['a name used twice', ['ARGV[1] a: string', 'ARGV[2] a: number'], /:6: argument name a used twice/],
    ['a flag in a union', ['ARGV[1] a: flag | string'], /:5: flag stands alone in its type/],
    ['a list without ..', ['ARGV[1] a: pairs'], /:5: a pairs is written ARGV\[1 \.\.\]/],
    ['a value written as a list', ['ARGV[1 ..] a: string'], /:5: ARGV\[1 \.\.\] is a list/],
    [
      'a value after a list to the end',
      ['ARGV[1 ..] a: pairs', 'ARGV[2] b: string'],
      /:6: a runs to the end of ARGV: only ARGV\[#ARGV\] may follow it/,
    ],
    [
      'ARGV[#ARGV] without a list before',
      ['ARGV[1] a: string', 'ARGV[#ARGV] b: string'],
      /:6: ARGV\[#ARGV\] follows a list that runs to the end/,
    ],
    ['ARGV[..] first', ['ARGV[..] a: pairs'], /:5: ARGV\[\.\.\] follows a counted list/],
    [
      'anything after ARGV[#ARGV]',
      ['ARGV[1 ..] a: list', 'ARGV[#ARGV] b: string', 'ARGV[#ARGV] c: string'],
      /:7: nothing may follow ARGV\[#ARGV\]/,
    ],
  ];
  for (const [what, lines, error] of args)
    cases.push([what, header([...keys, ...lines]), new RegExp(`lua/probe/bad-2\\.lua${error.source}`)]);
  cases.push([
    'no Returns line',
    `--[[\n  Test.\n  KEYS[1] a\n  KEYS[2] b\n]]\n`,
    /lua\/probe\/bad-2\.lua:5: header lacks a Returns <type> line/,
  ]);
  cases.push([
    'a code not in the error table',
    header(keys, 'Returns { ok: true }\n  Refuses not_found | no_such_code'),
    /lua\/probe\/bad-2\.lua:6: refusal no_such_code is not in the error table \(src\/errors\.ts\)/,
  ]);
  cases.push([
    'an unreadable refusal',
    header(keys, 'Returns { ok: true }\n  Refuses not_found, queue_full'),
    /lua\/probe\/bad-2\.lua:6: Refuses lists codes as `code \{ hint fields \} \(a note\) \| code \.\.\.`/,
  ]);
  for (const [what, source, error] of cases)
    t.throws(() => readScripts(luaDir({ 'probe/bad-2.lua': source })), error, what);
});

t.test("the generator refuses a reply type it cannot write, naming the header's line", async (t) => {
  const cases: [string, string, RegExp][] = [
    [
      'not TypeScript',
      'Returns { ok: true',
      /lua\/probe\/bad-0\.lua:3: Returns is not a TypeScript type: '}' expected/,
    ],
    [
      'an unknown type name',
      'Returns { message: StoredMessage }',
      /lua\/probe\/bad-0\.lua:3: Returns names the type StoredMessage: write it out, or export it from actors\/bindings\/shapes\.ts/,
    ],
    [
      'an error member',
      'Returns { ok: true } | { error: string }',
      /lua\/probe\/bad-0\.lua:3: Returns has an error member: list refusals in the Refuses line instead/,
    ],
  ];
  for (const [what, returns, error] of cases)
    t.throws(
      () => bindingFiles(readScripts(luaDir({ 'probe/bad-0.lua': header([], returns) })), new Set()),
      error,
      what,
    );
  const shaped = readScripts(
    luaDir({ 'probe/good-0.lua': header([], 'Returns { inbox: InboxFigures } // a shape of shapes.ts') }),
  );
  t.match(
    bindingFiles(shaped, new Set(['InboxFigures'])).get('probe.generated.ts')!,
    /import type \{ InboxFigures \} from '\.\/shapes\.js';/,
  );
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
    'probe/two-0.lua':
      header([], 'Returns { n: number }') + '--- @include "a"\n--- @include "b"\nreturn cjson.encode({ n = b() })\n',
    'includes/a.lua': 'local function a() return 1 end\n',
    'includes/b.lua': '--- @include "a"\nlocal function b() return a() + 1 end\n',
  });
  const [file] = readScripts(dir);
  t.equal(file!.source.match(/local function a\(/g)?.length, 1);
  const scripts = new Scripts(await testRedis(), [file!]);
  t.same(await scripts.run('probe/two', [], []), { n: 2 });
});

t.test('arguments given as flat are written as ioredis writes any list, numbers and strings alike', async (t) => {
  const values = ['sha', 3, '{t}:a', '{t}:b', '{t}:c', 'é, un texte\r\n', '', 42, '{"a":1}'];
  const flat = new FlatArguments();
  flat.push(...values);
  t.equal(new Command('evalsha', flat).toWritable({}), new Command('evalsha', [...values]).toWritable({}));
});
