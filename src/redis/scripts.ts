import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { Command } from 'ioredis';
import { MailboxError, isErrorCode, type Hint } from '../errors.js';
import { timeRedis } from '../metrics.js';
import { LUA_DIR, ROOT } from '../paths.js';
import type { RedisClient } from './connect.js';
import { FlatArguments } from './pipeline.js';
import { spaceOfEventsKey } from './keys.js';
import { parseHeader, type ScriptHeader } from './script-header.js';

/**
 * BullMQ-style script loading: `lua/<actor>/<verbNoun>-<nkeys>.lua`, includes resolved from
 * `lua/includes/<name>.lua` by a `--- @include "<name>"` line, read once and called by name
 * (`<actor>/<verbNoun>`): EVALSHA, and EVAL when a node does not know the script yet (a new or
 * restarted node, each node of a Cluster). Not ioredis's defineCommand: every pipeline object
 * would copy all the defined commands (BENCHMARKS.md, "Sending").
 * Each file opens with a header in the grammar of script-header.ts (keys, arguments, reply type,
 * refusals), read here at load. Callers never name a script: they call its typed binding
 * (actors/bindings/<actor>.generated.ts, written from the header by src/redis/bindings.ts), which
 * takes keys and arguments by name and puts them on the wire in the header's order.
 */
export interface ScriptFile {
  name: string;
  numberOfKeys: number;
  header: ScriptHeader;
  path: string;
  source: string;
}

const INCLUDE = /^--- @include "([A-Za-z0-9_]+)"\s*$/;
const FILE = /^([A-Za-z]+)-(\d+)\.lua$/;

/** A file and line in messages, from the lua dir: `lua/<actor>/<file>.lua:<line>`. */
const place = (dir: string, path: string, line: number): string =>
  `${join(basename(dir), relative(dir, path))}:${line}`;

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

/** Every script of the lua dir, in a stable order (actor, then file name), its header read. */
export function readScripts(dir = LUA_DIR): ScriptFile[] {
  const scripts: ScriptFile[] = [];
  for (const actor of readdirSync(dir).sort()) {
    if (actor === 'includes') continue;
    for (const file of readdirSync(join(dir, actor)).sort()) {
      const match = FILE.exec(file);
      if (!match) throw new Error(`${basename(dir)}/${actor}/${file}: name must be <verbNoun>-<nkeys>.lua`);
      const path = join(dir, actor, file);
      const numberOfKeys = Number(match[2]);
      scripts.push({
        name: `${actor}/${match[1]}`,
        numberOfKeys,
        header: parseHeader(readFileSync(path, 'utf8'), numberOfKeys, (line) => place(dir, path, line)),
        path,
        source: resolveIncludes(dir, path, new Set(), []),
      });
    }
  }
  return scripts;
}

type LoadedScript = ScriptFile & { sha: string; refusals: ReadonlySet<string> };

type Reply = Record<string, unknown> & { error?: string; hint?: Hint };

/**
 * The one place where a script's reply becomes a result or a refusal. Every script answers a JSON
 * object; `{"error": "<code>", "hint": {...}}` is a refusal from the error table, one its header declares.
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

  constructor(
    private readonly redis: RedisClient,
    files: ScriptFile[] = readScripts(),
  ) {
    for (const file of files) {
      const sha = createHash('sha1').update(file.source).digest('hex');
      this.byName.set(file.name, {
        ...file,
        sha,
        refusals: new Set(file.header.refuses.map((refusal) => refusal.code)),
      });
    }
  }

  /**
   * Runs a script with its keys and arguments in the header's order (KEYS: the named keys, then any
   * tail). Called by the generated bindings only (a test checks it): they name and type both.
   */
  async run<T>(name: string, keys: readonly string[], args: readonly (string | number)[]): Promise<T> {
    const file = this.byName.get(name);
    if (!file) throw new Error(`unknown script ${name}`);
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
      if (!file.refusals.has(reply.error))
        throw new Error(
          `${name} refused with ${reply.error}, which its header's Refuses line does not list: add it there (${relative(ROOT, file.path)})`,
        );
      // cjson encodes an empty table as {}; a hint without fields is no hint.
      const hint = reply.hint && Object.keys(reply.hint).length ? reply.hint : null;
      throw new MailboxError(reply.error, hint);
    }
    if (this.afterEvents && reply.webhook !== false) {
      for (let i = 0; i < file.numberOfKeys; i++) {
        const spaceId = spaceOfEventsKey(keys[i]!);
        if (spaceId) {
          await this.afterEvents(spaceId);
          break;
        }
      }
    }
    return reply as T;
  }
}

/** EVALSHA or EVAL with the script's keys and arguments, the reply as a string. */
function evaluate(
  redis: RedisClient,
  command: 'evalsha' | 'eval',
  script: string,
  keys: readonly string[],
  args: readonly (string | number)[],
): Promise<string> {
  const list = new FlatArguments();
  list.push(script, keys.length, ...keys, ...args);
  const call = new Command(command, list, { replyEncoding: 'utf8' });
  redis.sendCommand(call);
  return call.promise as Promise<string>;
}
