import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { MailboxError, isErrorCode, type Hint } from '../errors.js';
import { LUA_DIR } from '../paths.js';
import type { RedisClient } from './connect.js';
import { spaceOfEventsKey } from './keys.js';

/**
 * BullMQ-style script loading: `lua/<actor>/<verbNoun>-<nkeys>.lua`, includes resolved from
 * `lua/includes/<name>.lua` by a `--- @include "<name>"` line, read once and called by name
 * (`<actor>/<verbNoun>`): EVALSHA, and EVAL when a node does not know the script yet (a new or
 * restarted node, each node of a Cluster). Not ioredis's defineCommand: every pipeline object
 * would copy all the defined commands (BENCHMARKS.md, "Sending").
 */
export interface ScriptFile {
  name: string;
  numberOfKeys: number;
  path: string;
  source: string;
}

const INCLUDE = /^--- @include "([A-Za-z0-9_]+)"\s*$/gm;
const FILE = /^([A-Za-z]+)-(\d+)\.lua$/;

function resolveIncludes(source: string, seen: Set<string>): string {
  return source.replace(INCLUDE, (_line, include: string) => {
    if (seen.has(include)) return '';
    seen.add(include);
    return resolveIncludes(readFileSync(join(LUA_DIR, 'includes', `${include}.lua`), 'utf8'), seen);
  });
}

export function readScripts(dir = LUA_DIR): ScriptFile[] {
  const scripts: ScriptFile[] = [];
  for (const actor of readdirSync(dir)) {
    if (actor === 'includes') continue;
    for (const file of readdirSync(join(dir, actor))) {
      const match = FILE.exec(file);
      if (!match) throw new Error(`lua/${actor}/${file}: name must be <verbNoun>-<nkeys>.lua`);
      const path = join(dir, actor, file);
      scripts.push({
        name: `${actor}/${match[1]}`,
        numberOfKeys: Number(match[2]),
        path,
        source: resolveIncludes(readFileSync(path, 'utf8'), new Set()),
      });
    }
  }
  return scripts;
}

type Reply = Record<string, unknown> & { error?: string; hint?: Hint };

/**
 * The one place where a script's reply becomes a result or a refusal. Every script answers a JSON
 * object; `{"error": "<code>", "hint": {...}}` is a refusal from the error table.
 */
export class Scripts {
  private readonly byName = new Map<string, ScriptFile & { sha: string }>();
  /**
   * Called after a script that was given a space's event stream answered without refusal, so webhook
   * delivery wakes for whatever event any behaviour appended (actors/webhook-index.ts); null: no webhooks.
   * A script that answers `"webhook": false` read, in its own atomic step, that the space declares no
   * webhook: nothing to wake (the hot paths say so; a wake costs a round trip).
   * A failed wake is left to the sweeper: the state and its event are written, the call succeeded.
   */
  afterEvents: ((spaceId: string) => Promise<void>) | null = null;

  constructor(private readonly redis: RedisClient, files: ScriptFile[] = readScripts()) {
    for (const file of files) this.byName.set(file.name, { ...file, sha: createHash('sha1').update(file.source).digest('hex') });
  }

  async run<T extends object>(name: string, keys: string[], args: (string | number)[]): Promise<T> {
    const file = this.byName.get(name);
    if (!file) throw new Error(`unknown script ${name}`);
    if (keys.length !== file.numberOfKeys) throw new Error(`${name} takes ${file.numberOfKeys} keys, got ${keys.length}`);
    let raw: string;
    try {
      raw = (await this.redis.evalsha(file.sha, keys.length, ...keys, ...args)) as string;
    } catch (error) {
      if (!(error as Error).message.startsWith('NOSCRIPT')) throw error;
      raw = (await this.redis.eval(file.source, keys.length, ...keys, ...args)) as string;
    }
    const reply = JSON.parse(raw) as Reply;
    if (reply.error !== undefined) {
      if (!isErrorCode(reply.error)) throw new Error(`${name} answered unknown code ${reply.error}`);
      // cjson encodes an empty table as {}; a hint without fields is no hint.
      const hint = reply.hint && Object.keys(reply.hint).length ? reply.hint : null;
      throw new MailboxError(reply.error, hint);
    }
    const spaceId = this.afterEvents && reply.webhook !== false && keys.map(spaceOfEventsKey).find((id) => id !== null);
    if (spaceId) await this.afterEvents!(spaceId);
    return reply as T;
  }
}
