/**
 * Where each tool is tested: test/fixtures/tool-tests.json maps every registered tool to the files
 * that call it, the first of them holding its refusals, and every tool that takes an id to the line
 * (file, then a piece of its text: grep for it; the text around it is read) where another space's id gets not_found (list_events,
 * whose ids only filter one space's journal: an empty answer). A new tool fails here until it has
 * its entries.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { ROOT } from '../../src/paths.js';
import { TOOLS } from '../../src/tools/index.js';

const INDEX = 'test/fixtures/tool-tests.json';
const index = JSON.parse(readFileSync(join(ROOT, INDEX), 'utf8')) as {
  tools: Record<string, string[]>;
  crossSpace: Record<string, [file: string, says: string]>;
};
const names = TOOLS.map((tool) => tool.name);
const takesAnId = (tool: (typeof TOOLS)[number]) =>
  Object.keys(tool.input.properties).some((name) => /_ids?$/.test(name));

const exists = (file: string) => existsSync(join(ROOT, file));
const source = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const calls = (text: string, tool: string) => text.includes(`'${tool}'`) || text.includes(`"${tool}"`);
const assertsErrors = (text: string) => /error\??\.(code|hint)|error, \{ code:|refused\w*\(/.test(text);

/**
 * The text around the first place holding `says`, its white space folded, or null when nothing holds
 * it: counted in characters, not lines, so that how a formatter wraps a call does not matter.
 */
function around(text: string, says: string, reach = 320): string | null {
  const folded = text.replace(/\s+/g, ' ');
  const at = folded.indexOf(says.replace(/\s+/g, ' '));
  return at < 0 ? null : folded.slice(Math.max(0, at - reach), at + says.length + reach);
}

t.test('every registered tool has its test files, and only registered tools are listed', async (t) => {
  for (const name of names) t.ok(index.tools[name]?.length, `${name} has an entry in ${INDEX}`);
  t.same(
    Object.keys(index.tools).filter((name) => !names.includes(name)),
    [],
    'no entry for a tool that does not exist',
  );
});

t.test('every listed file exists and calls its tool by name', async (t) => {
  for (const [name, files] of Object.entries(index.tools)) {
    for (const file of files) {
      t.ok(exists(file), `${file} exists`);
      if (exists(file)) t.ok(calls(source(file), name), `${file} calls ${name}`);
    }
  }
});

t.test('the first file named for a tool holds its refusals: it calls the tool and asserts error codes', async (t) => {
  for (const [name, [first]] of Object.entries(index.tools)) {
    if (first && exists(first)) t.ok(assertsErrors(source(first)), `${first} asserts refusals (${name})`);
  }
});

/**
 * What another space's id answers where it is not not_found: list_events only filters one space's
 * journal (an empty answer); a workspace instance of another space is one "not reachable with this
 * connection" (docs/contract.md, Part 7: workspace_expired).
 */
const CROSS_SPACE_ANSWERS: Record<string, RegExp> = {
  list_events: /, \[\],/,
  navigate_workspace: /workspace_expired/,
  workspace_events: /workspace_expired/,
};

t.test("every tool that takes an id shows that another space's id is not found", async (t) => {
  for (const tool of TOOLS.filter(takesAnId)) {
    const entry = index.crossSpace[tool.name];
    t.ok(entry, `${tool.name} names its cross-space line in ${INDEX}`);
    if (!entry || !exists(entry[0])) continue;
    const [file, says] = entry;
    const lines = around(source(file), says);
    t.ok(lines, `${file} holds « ${says} »`);
    t.ok(calls(source(file), tool.name), `${file} calls ${tool.name}`);
    const answer = CROSS_SPACE_ANSWERS[tool.name] ?? /not_found/;
    t.match(lines ?? '', answer, `${tool.name}: another space's id answers ${answer}`);
  }
  t.same(
    Object.keys(index.crossSpace).filter((name) => !TOOLS.some((tool) => tool.name === name && takesAnId(tool))),
    [],
    'only tools that take an id',
  );
});
