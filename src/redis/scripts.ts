import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { Command } from 'ioredis';
import { MailboxError, isErrorCode, type Hint } from '../errors.js';
import { timeRedis } from '../metrics.js';
import { LUA_DIR } from '../paths.js';
import type { RedisClient } from './connect.js';
import { FlatArguments } from './pipeline.js';
import { spaceOfEventsKey } from './keys.js';

/**
 * BullMQ-style script loading: `lua/<actor>/<verbNoun>-<nkeys>.lua`, includes resolved from
 * `lua/includes/<name>.lua` by a `--- @include "<name>"` line, read once and called by name
 * (`<actor>/<verbNoun>`): EVALSHA, and EVAL when a node does not know the script yet (a new or
 * restarted node, each node of a Cluster). Not ioredis's defineCommand: every pipeline object
 * would copy all the defined commands (BENCHMARKS.md, "Sending").
 * Keys are named by the header's `KEYS[i] <name>` lines: a caller passes `{ <name>: key }` and the
 * loader puts them in the header's order, so a caller cannot swap two keys unnoticed. A script may end
 * its keys with a list of any length, `KEYS[<n+1> ..] <name>` (n the file name's count): the caller
 * passes that list apart, and only to such a script (the search index's word keys, actors/search.ts).
 */
export interface ScriptFile {
  name: string;
  numberOfKeys: number;
  /** The header's key names, in KEYS order. */
  keyNames: string[];
  /** The name of the keys of any number that follow them (`KEYS[<n+1> ..] <name>`), null when none may. */
  keyTail: string | null;
  path: string;
  source: string;
}

const INCLUDE = /^--- @include "([A-Za-z0-9_]+)"\s*$/;
const KEY_LINE = /^\s*KEYS\[(\d+)\]\s+([A-Za-z][A-Za-z0-9]*)/;
const KEY_TAIL_LINE = /^\s*KEYS\[(\d+) \.\.\]\s+([A-Za-z][A-Za-z0-9]*)/;
const FILE = /^([A-Za-z]+)-(\d+)\.lua$/;

/** A file and line in messages, from the lua dir: `lua/<actor>/<file>.lua:<line>`. */
const place = (dir: string, path: string, line: number): string => `${join(basename(dir), relative(dir, path))}:${line}`;

/**
 * Inlines each include once, where it is first named. A missing include and an include cycle stop
 * the load, named by the including file and line.
 */
function resolveIncludes(dir: string, path: string, seen: Set<string>, chain: string[]): string {
  const lines = readFileSync(path, 'utf8').split('\n');
  return lines
    .map((line, index) => {
      const include = INCLUDE.exec(line)?.[1];
      if (!include) return line;
      const at = place(dir, path, index + 1);
      if (chain.includes(include)) throw new Error(`${at}: include cycle ${[...chain, include].join(' -> ')}`);
      if (seen.has(include)) return '';
      const file = join(dir, 'includes', `${include}.lua`);
      if (!existsSync(file)) throw new Error(`${at}: include "${include}" not found (includes/${include}.lua)`);
      seen.add(include);
      return resolveIncludes(dir, file, seen, [...chain, include]);
    })
    .join('\n');
}

/**
 * The header's `KEYS[i] <name>` lines: exactly one per key the file name counts, names unique; and the
 * name of a `KEYS[<n+1> ..] <name>` line, the list of any length after them.
 */
function keyNames(dir: string, path: string, source: string, numberOfKeys: number): { names: string[]; tail: string | null } {
  const lines = source.split('\n');
  const headerEnd = source.startsWith('--[[') ? lines.findIndex((line) => line.includes(']]')) : -1;
  if (headerEnd < 0) throw new Error(`${place(dir, path, 1)}: no --[[ ... ]] header naming the keys`);
  const names: string[] = [];
  let tail: string | null = null;
  for (let index = 0; index <= headerEnd; index++) {
    const tailMatch = KEY_TAIL_LINE.exec(lines[index]!);
    if (tailMatch) {
      if (Number(tailMatch[1]) !== numberOfKeys + 1) throw new Error(`${place(dir, path, index + 1)}: KEYS[${tailMatch[1]} ..] must follow the ${numberOfKeys} keys of the file name`);
      tail = tailMatch[2]!;
      continue;
    }
    const match = KEY_LINE.exec(lines[index]!);
    if (!match) continue;
    const at = place(dir, path, index + 1);
    const i = Number(match[1]);
    const name = match[2]!;
    if (i < 1 || i > numberOfKeys) throw new Error(`${at}: KEYS[${i}] beyond the ${numberOfKeys} keys of the file name`);
    if (names[i - 1] !== undefined) throw new Error(`${at}: KEYS[${i}] named twice`);
    if (names.includes(name)) throw new Error(`${at}: key name ${name} used twice`);
    names[i - 1] = name;
  }
  for (let i = 1; i <= numberOfKeys; i++) {
    if (names[i - 1] === undefined) throw new Error(`${place(dir, path, headerEnd + 1)}: header lacks a KEYS[${i}] <name> line`);
  }
  return { names, tail };
}

export function readScripts(dir = LUA_DIR): ScriptFile[] {
  const scripts: ScriptFile[] = [];
  for (const actor of readdirSync(dir)) {
    if (actor === 'includes') continue;
    for (const file of readdirSync(join(dir, actor))) {
      const match = FILE.exec(file);
      if (!match) throw new Error(`${basename(dir)}/${actor}/${file}: name must be <verbNoun>-<nkeys>.lua`);
      const path = join(dir, actor, file);
      const numberOfKeys = Number(match[2]);
      const { names, tail } = keyNames(dir, path, readFileSync(path, 'utf8'), numberOfKeys);
      scripts.push({
        name: `${actor}/${match[1]}`,
        numberOfKeys,
        keyNames: names,
        keyTail: tail,
        path,
        source: resolveIncludes(dir, path, new Set(), []),
      });
    }
  }
  return scripts;
}

/** A script's keys by header name: `{ inbox: key, ... }`. */
export type ScriptKeys = Readonly<Record<string, string>>;

type LoadedScript = ScriptFile & { sha: string; keyNameSet: ReadonlySet<string> };

/** The keys in the header's order; a missing or unknown name is a caller's mistake, named. */
function orderKeys(file: LoadedScript, keys: ScriptKeys): string[] {
  // A set, not keyNames.includes: the store scripts name 25 keys, checked at every call.
  for (const name in keys) {
    if (!file.keyNameSet.has(name)) throw new Error(`${file.name} has no key named ${name} (${file.keyNames.join(', ')})`);
  }
  return file.keyNames.map((name) => {
    const key = keys[name];
    if (key === undefined) throw new Error(`${file.name}: key ${name} missing`);
    return key;
  });
}

type Reply = Record<string, unknown> & { error?: string; hint?: Hint };

/**
 * The one place where a script's reply becomes a result or a refusal. Every script answers a JSON
 * object; `{"error": "<code>", "hint": {...}}` is a refusal from the error table.
 */
export class Scripts {
  private readonly byName = new Map<string, LoadedScript>();
  /**
   * Called after a script that was given a space's event stream answered without refusal, so webhook
   * delivery wakes for whatever event any behaviour appended (actors/webhook-index.ts); null: no webhooks.
   * A script that answers `"webhook": false` read, in its own atomic step, that the space declares no
   * webhook: nothing to wake (the hot paths say so; a wake costs a round trip).
   * A failed wake is left to the sweeper: the state and its event are written, the call succeeded.
   */
  afterEvents: ((spaceId: string) => Promise<void>) | null = null;

  constructor(private readonly redis: RedisClient, files: ScriptFile[] = readScripts()) {
    for (const file of files) this.byName.set(file.name, { ...file, sha: createHash('sha1').update(file.source).digest('hex'), keyNameSet: new Set(file.keyNames) });
  }

  /** Runs a script; `tail` is the list its header names `KEYS[<n+1> ..]`, given to such a script only. */
  async run<T extends object>(name: string, namedKeys: ScriptKeys, args: (string | number)[], tail: readonly string[] = []): Promise<T> {
    const file = this.byName.get(name);
    if (!file) throw new Error(`unknown script ${name}`);
    if (tail.length && !file.keyTail) throw new Error(`${file.name} takes no keys beyond its ${file.numberOfKeys}`);
    const named = orderKeys(file, namedKeys);
    const keys = tail.length ? [...named, ...tail] : named;
    const raw = await timeRedis(name, async () => {
      try {
        return await evaluate(this.redis, 'evalsha', file.sha, keys, args);
      } catch (error) {
        if (!(error as Error).message.startsWith('NOSCRIPT')) throw error;
        return await evaluate(this.redis, 'eval', file.source, keys, args);
      }
    });
    const reply = JSON.parse(raw) as Reply;
    if (reply.error !== undefined) {
      if (!isErrorCode(reply.error)) throw new Error(`${name} answered unknown code ${reply.error}`);
      // cjson encodes an empty table as {}; a hint without fields is no hint.
      const hint = reply.hint && Object.keys(reply.hint).length ? reply.hint : null;
      throw new MailboxError(reply.error, hint);
    }
    const spaceId = this.afterEvents && reply.webhook !== false && named.map(spaceOfEventsKey).find((id) => id !== null);
    if (spaceId) await this.afterEvents!(spaceId);
    return reply as T;
  }
}

/** EVALSHA or EVAL with the script's keys and arguments, the reply as a string. */
function evaluate(redis: RedisClient, command: 'evalsha' | 'eval', script: string, keys: readonly string[], args: readonly (string | number)[]): Promise<string> {
  const list = new FlatArguments();
  list.push(script, keys.length, ...keys, ...args);
  const call = new Command(command, list, { replyEncoding: 'utf8' });
  redis.sendCommand(call);
  return call.promise as Promise<string>;
}
