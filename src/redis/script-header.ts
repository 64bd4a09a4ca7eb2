import { isErrorCode } from '../errors.js';

/**
 * The header grammar of a script (`lua/<actor>/<verbNoun>-<nkeys>.lua`; docs/architecture.md,
 * "Script headers"). The header is the opening `--[[ ... ]]` comment: a purpose paragraph, then one
 * line per key and per argument, the reply's type and the refusals, each line keeping its explanation:
 *
 *   KEYS[1] inbox            hash of the sending inbox
 *   KEYS[2 ..] searchWord    a list of keys of any length, after the named ones (optional)
 *   ARGV[1] now: number      now (ms)
 *   ARGV[2] mode: 'first' | 'reply'   a value of these words
 *   ARGV[3 ..] fields: pairs          field/value pairs up to the end (or `counted pairs`, `list`)
 *   ARGV[..] more: pairs              a list after a `counted pairs` one
 *   ARGV[#ARGV] words: string         the last argument, after a list that runs to the end
 *   Returns { ok: true } | { ok: false, current: string | null }   (a TypeScript type)
 *   Refuses not_found | queue_full { retry_after_seconds } (a note)
 *
 * A line indented deeper than the line before it continues it (its explanation, or the reply's type,
 * or the refusals). Any other line (`Events: ...`) is free text. The loader reads the header at load
 * (src/redis/scripts.ts) and the generator writes each script's typed binding from it
 * (src/redis/bindings.ts); a header that breaks the grammar stops both, named by file and line.
 */
export interface ScriptHeader {
  /** The purpose paragraph, its lines trimmed. */
  purpose: string[];
  keys: KeySpec[];
  /** The keys of any number after the named ones (`KEYS[<n+1> ..] <name>`), null when none. */
  keyTail: KeySpec | null;
  args: ArgSpec[];
  returns: { type: string; line: number };
  refuses: RefusalSpec[];
}

export interface KeySpec {
  name: string;
  doc: string;
  line: number;
}

/** A scalar's wire types: strings as they are, numbers in decimal, a flag as '1' or '0', or one of some words. */
export type ScalarType = 'string' | 'number' | 'json' | 'flag' | `'${string}'`;

export type ArgSpec = KeySpec &
  (
    | { kind: 'value'; position: number | 'last'; types: ScalarType[] }
    /** `pairs`: field/value pairs; `counted pairs`: their number first; `list`: values. */
    | { kind: 'pairs' | 'counted pairs' | 'list'; position: number | 'next' }
  );

export interface RefusalSpec {
  code: string;
  /** The hint's field names, as the header lists them (documentation). */
  hint: string[];
  line: number;
}

const NAME = '[A-Za-z][A-Za-z0-9]*';
const KEY_LINE = new RegExp(`^KEYS\\[(\\d+)\\]\\s+(${NAME})\\s*(.*)$`);
const KEY_TAIL_LINE = new RegExp(`^KEYS\\[(\\d+) \\.\\.\\]\\s+(${NAME})\\s*(.*)$`);
const ARG_LINE = new RegExp(`^ARGV\\[(\\d+|\\d+ \\.\\.|\\.\\.|#ARGV)\\]\\s+(${NAME}):\\s*(.*)$`);
const SCALAR = "(?:string|number|json|flag|'[^'\\s]*')";
const ARG_TYPE = new RegExp(`^(counted pairs|pairs|list|${SCALAR}(?:\\s*\\|\\s*${SCALAR})*)(?=\\s|$)\\s*(.*)$`);
const REFUSAL = /^([a-z_]+)\s*(?:\{([^}]*)\})?\s*(?:\([^)]*\))?$/;

const ARG_FORM =
  "`ARGV[i] <name>: <type>  <explanation>`, the type one of string, number, json, flag or a 'word', joined by |, " +
  'or for a list `ARGV[i ..] <name>: pairs | counted pairs | list` (docs/architecture.md, "Script headers")';

type Item = {
  what: 'key' | 'tail' | 'arg' | 'returns' | 'refuses';
  text: string[];
  indent: number;
  line: number;
  match: RegExpExecArray | null;
};

/** Reads the header of a script's own text; `at(line)` names a place in errors (`lua/<actor>/<file>:<line>`). */
export function parseHeader(source: string, numberOfKeys: number, at: (line: number) => string): ScriptHeader {
  const lines = source.split('\n');
  const end = source.startsWith('--[[') ? lines.findIndex((line) => line.includes(']]')) : -1;
  if (end < 0) throw new Error(`${at(1)}: no --[[ ... ]] header naming the keys`);
  const purpose: string[] = [];
  const items: Item[] = [];
  let notes = false;
  for (let index = 1; index < end; index++) {
    const raw = lines[index]!;
    const text = raw.trim();
    const indent = raw.length - raw.trimStart().length;
    const last = items[items.length - 1];
    const item = classify(text, indent, index + 1);
    if (item) {
      items.push(item);
      notes = false;
    } else if (!items.length) {
      if (text) purpose.push(text);
    } else if (last && !notes && indent > last.indent && text) {
      last.text.push(text);
    } else {
      notes = true;
    }
  }
  const header: ScriptHeader = {
    purpose,
    keys: [],
    keyTail: null,
    args: [],
    returns: { type: '', line: 0 },
    refuses: [],
  };
  for (const item of items) {
    if (item.what === 'key' || item.what === 'tail') readKey(header, item, numberOfKeys, at);
    else if (item.what === 'arg') readArg(header, item, at);
    else if (item.what === 'returns') {
      if (header.returns.line) throw new Error(`${at(item.line)}: a second Returns line`);
      header.returns = { type: item.text.join('\n'), line: item.line };
    } else readRefusals(header, item, at);
  }
  for (let i = 1; i <= numberOfKeys; i++) {
    if (header.keys[i - 1] === undefined) throw new Error(`${at(end + 1)}: header lacks a KEYS[${i}] <name> line`);
  }
  if (!header.returns.line)
    throw new Error(`${at(end + 1)}: header lacks a Returns <type> line (docs/architecture.md, "Script headers")`);
  return header;
}

function classify(text: string, indent: number, line: number): Item | null {
  const item = (what: Item['what'], rest: string, match: RegExpExecArray | null = null): Item => ({
    what,
    text: rest ? [rest] : [],
    indent,
    line,
    match,
  });
  let match = KEY_TAIL_LINE.exec(text);
  if (match) return item('tail', match[3]!, match);
  match = KEY_LINE.exec(text);
  if (match) return item('key', match[3]!, match);
  if (text.startsWith('ARGV[')) return item('arg', text, ARG_LINE.exec(text));
  match = /^Returns\s+(.*)$/.exec(text);
  if (match) return item('returns', match[1]!);
  match = /^Refuses\s+(.*)$/.exec(text);
  if (match) return item('refuses', match[1]!);
  return null;
}

function readKey(header: ScriptHeader, item: Item, numberOfKeys: number, at: (line: number) => string): void {
  const [, index, name] = item.match!;
  const spec = { name: name!, doc: item.text.join(' '), line: item.line };
  const taken = [...header.keys, ...(header.keyTail ? [header.keyTail] : [])].some((key) => key?.name === name);
  if (taken) throw new Error(`${at(item.line)}: key name ${name} used twice`);
  const i = Number(index);
  if (item.what === 'tail') {
    if (i !== numberOfKeys + 1)
      throw new Error(`${at(item.line)}: KEYS[${i} ..] must follow the ${numberOfKeys} keys of the file name`);
    header.keyTail = spec;
    return;
  }
  if (i < 1 || i > numberOfKeys)
    throw new Error(`${at(item.line)}: KEYS[${i}] beyond the ${numberOfKeys} keys of the file name`);
  if (header.keys[i - 1] !== undefined) throw new Error(`${at(item.line)}: KEYS[${i}] named twice`);
  header.keys[i - 1] = spec;
}

/** One argument line: its place must follow the lines before it (see ScriptHeader). */
function readArg(header: ScriptHeader, item: Item, at: (line: number) => string): void {
  const where = at(item.line);
  const start = /^ARGV\[[^\]]*\]/.exec(item.text[0]!)?.[0] ?? 'ARGV[';
  if (!item.match) throw new Error(`${where}: ${start} must read ${ARG_FORM}`);
  const [, place, name, rest] = item.match;
  const typed = ARG_TYPE.exec(rest!);
  if (!typed)
    throw new Error(`${where}: ${start} ${name}: unknown type "${rest!.split(/\s{2,}/)[0]}"; write ${ARG_FORM}`);
  const [, type, doc] = typed;
  if (header.args.some((arg) => arg.name === name)) throw new Error(`${where}: argument name ${name} used twice`);
  if (/(^|\s)ARGV\[[^\]]*\]\s+[A-Za-z][A-Za-z0-9]*:/.test(doc!))
    throw new Error(`${where}: one ARGV a line (${start} is followed by another)`);
  const fixed = header.args.filter((arg) => arg.kind === 'value' && arg.position !== 'last').length;
  const lists = header.args.filter((arg) => arg.kind !== 'value');
  const lastList = lists[lists.length - 1];
  const list = type === 'pairs' || type === 'counted pairs' || type === 'list';
  const base = { name: name!, doc: [doc!, ...item.text.slice(1)].filter(Boolean).join(' '), line: item.line };
  if (header.args.some((arg) => arg.kind === 'value' && arg.position === 'last'))
    throw new Error(`${where}: nothing may follow ARGV[#ARGV]`);
  if (place === '#ARGV') {
    if (list) throw new Error(`${where}: ARGV[#ARGV] is one value, not a list`);
    if (!lastList || lastList.kind === 'counted pairs')
      throw new Error(
        `${where}: ARGV[#ARGV] follows a list that runs to the end (pairs or list); give it its index instead`,
      );
    header.args.push({ ...base, kind: 'value', position: 'last', types: scalarTypes(type!, where) });
    return;
  }
  if (lastList && lastList.kind !== 'counted pairs')
    throw new Error(`${where}: ${lastList.name} runs to the end of ARGV: only ARGV[#ARGV] may follow it`);
  if (place === '..') {
    if (!lastList)
      throw new Error(
        `${where}: ARGV[..] follows a counted list; give the first list its index, ARGV[${fixed + 1} ..]`,
      );
    if (!list) throw new Error(`${where}: ARGV[..] is a list (pairs, counted pairs or list)`);
    header.args.push({ ...base, kind: type as 'pairs', position: 'next' });
    return;
  }
  if (lastList)
    throw new Error(`${where}: after a counted list, write ARGV[..] for a list or ARGV[#ARGV] for the last value`);
  const index = Number(place!.replace(' ..', ''));
  if (index !== fixed + 1) throw new Error(`${where}: ${start} out of order: ARGV[${fixed + 1}] comes next`);
  const isList = place!.endsWith(' ..');
  if (isList !== list)
    throw new Error(
      `${where}: ${isList ? `ARGV[${index} ..] is a list (pairs, counted pairs or list)` : `a ${type} is written ARGV[${index} ..]`}`,
    );
  if (list) header.args.push({ ...base, kind: type as 'pairs', position: index });
  else header.args.push({ ...base, kind: 'value', position: index, types: scalarTypes(type!, where) });
}

function scalarTypes(type: string, where: string): ScalarType[] {
  const types = type.split('|').map((part) => part.trim() as ScalarType);
  if (types.length > 1 && types.includes('flag'))
    throw new Error(`${where}: flag stands alone in its type (a boolean, sent as '1' or '0')`);
  return types;
}

function readRefusals(header: ScriptHeader, item: Item, at: (line: number) => string): void {
  if (header.refuses.length)
    throw new Error(`${at(item.line)}: a second Refuses line (continue the first with lines starting with |)`);
  for (const part of splitTop(item.text.join(' '))) {
    const match = REFUSAL.exec(part.trim());
    if (!match)
      throw new Error(
        `${at(item.line)}: Refuses lists codes as \`code { hint fields } (a note) | code ...\`; cannot read "${part.trim()}"`,
      );
    const code = match[1]!;
    if (!isErrorCode(code))
      throw new Error(`${at(item.line)}: refusal ${code} is not in the error table (src/errors.ts)`);
    if (header.refuses.some((refusal) => refusal.code === code))
      throw new Error(`${at(item.line)}: refusal ${code} listed twice`);
    const hint = (match[2] ?? '')
      .split(',')
      .map((field) => field.trim())
      .filter(Boolean);
    header.refuses.push({ code, hint, line: item.line });
  }
}

/** Splits `a { x } | b (c | d)` on the bars outside braces and parentheses. */
function splitTop(text: string): string[] {
  const parts = [''];
  let depth = 0;
  for (const char of text) {
    if (char === '{' || char === '(') depth++;
    if (char === '}' || char === ')') depth--;
    if (char === '|' && depth === 0) parts.push('');
    else parts[parts.length - 1] += char;
  }
  return parts;
}
