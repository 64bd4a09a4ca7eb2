/**
 * `mailbox serve --dev` (`npm run dev`): the embedded default set up for trying, not for production.
 * The window is always open, there is no spacing, mail lands in <MAILBOX_DATA_DIR>/outbox, webhooks may
 * go to http://localhost, and a verified dev space on a plan is made once, its key printed that once
 * with ready commands. Later starts reuse the space: its id is kept in <MAILBOX_DATA_DIR>/dev-space.json,
 * never its key (only the key's hash is stored, in Redis); `--new-key` mints another when it is lost.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createOperatorKey, createSpace, listKeys } from '../../actors/space.js';
import { iso } from '../clock.js';
import type { Config } from '../config.js';
import { PERMISSIONS } from '../records.js';
import type { Runtime } from '../runtime.js';
import { parseSendWindow } from '../sending/window.js';

const DEV_HUMAN = 'dev@example.com';
const DEV_PLAN = 'starter';
const DEV_INBOX = 'agent';
const PEER = 'friend@example.org';

/** The embedded socket `mailbox serve` starts (src/cli/runtime.ts openRuntime): the one Redis dev mode may use. */
const embeddedRedisSocket = (config: Config): string => resolve(config.dataDir, 'redis', 'redis.sock');

/** Why the dev mode refuses this environment, or null: it makes spaces, so never in someone's real Redis. */
export function devRefusal(config: Config): string | null {
  if (config.redisClusterNodes) return 'serve --dev runs on the embedded Redis only: unset REDIS_CLUSTER_NODES';
  if (config.redisUrl && resolve(config.redisUrl) !== embeddedRedisSocket(config)) {
    return 'serve --dev runs on the embedded Redis only (it makes a dev space there): unset REDIS_URL';
  }
  return null;
}

/** The settings of the dev mode over the environment's: only the embedded default runs it (devRefusal). */
export const devConfig = (config: Config): Config => ({
  ...config,
  redisUrl: null,
  sendWindow: parseSendWindow('always'),
  spacingSeconds: 0,
  outbound: { kind: 'outbox' },
  webhookAllowLoopback: true,
  webhookAllowHttpLocalhost: true,
});

interface DevState {
  space_id: string;
  key_printed_at: string;
}

const stateFile = (config: Config): string => join(config.dataDir, 'dev-space.json');

const writeState = (config: Config, spaceId: string, now: number): void =>
  writeFileSync(stateFile(config), JSON.stringify({ space_id: spaceId, key_printed_at: iso(now) } satisfies DevState) + '\n');

function readState(config: Config): DevState | null {
  const file = stateFile(config);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as DevState) : null;
}

export interface Endpoints {
  /** http://host:port */
  http: string;
  /** host:port */
  smtp: string;
}

/**
 * Makes or reuses the dev space and prints the banner: with the key and the ready commands when a key
 * was made now, else where it was printed.
 */
export async function announceDevSpace(rt: Runtime, endpoints: Endpoints, newKey: boolean, out: (line: string) => void): Promise<void> {
  const config = rt.config;
  const kept = readState(config);
  // A kept id whose space is gone (its Redis data removed) counts as none: a new dev space is made.
  const spaceId = kept && (await listKeys(rt, kept.space_id)).length ? kept.space_id : null;
  out(banner(config));
  if (spaceId && !newKey) return out(keptSpaceNote(config, endpoints, spaceId, kept!.key_printed_at));
  let apiKey: string;
  let note: string;
  if (spaceId) {
    const spec = { name: `dev ${iso(rt.clock.now())}`, permissions: [...PERMISSIONS], inbox_ids: null, daily_cap: null };
    apiKey = (await createOperatorKey(rt, spaceId, spec)).api_key;
    note = 'A new key for the dev space (its former keys still work):';
    writeState(config, spaceId, rt.clock.now());
  } else {
    const created = await createSpace(rt, { human: DEV_HUMAN, name: 'dev', plan: DEV_PLAN, verified: true });
    apiKey = created.api_key;
    note = `A dev space, verified, on the ${DEV_PLAN} plan, human ${DEV_HUMAN}. Its key, shown this once (only its hash is kept):`;
    writeState(config, created.space_id, rt.clock.now());
  }
  out(`${note}\n\n${readyCommands(config, endpoints, apiKey)}`);
}

function banner(config: Config): string {
  const rule = '='.repeat(78);
  return [
    rule,
    '  MAILBOX DEVELOPMENT MODE: for trying on this machine, never for production.',
    '  Sending window always open, no spacing between messages, nothing leaves:',
    `  mail lands in ${join(config.dataDir, 'outbox')}/. Webhooks may go to http://localhost.`,
    rule,
  ].join('\n');
}

function keptSpaceNote(config: Config, endpoints: Endpoints, spaceId: string, printedAt: string): string {
  return [
    `The dev space ${spaceId} (from ${stateFile(config)}) is reused. Its key was printed once, by the start`,
    `of ${printedAt}, in that terminal; it is kept nowhere in clear. Lost? \`npm run dev -- --new-key\``,
    '(or `mailbox serve --dev --new-key`) mints a new one.',
    '',
    `    export MAILBOX_URL=${endpoints.http} MAILBOX_KEY=<the key>`,
  ].join('\n');
}

/** The ready commands of README's quick start, numbered; each block runs as it is in a POSIX shell. */
function readyCommands(config: Config, endpoints: Endpoints, apiKey: string): string {
  const address = `${DEV_INBOX}@${config.commonDomain}`;
  const curl = (tool: string, body: string) =>
    `curl -s -w '\\n' "$MAILBOX_URL/v1/${tool}" -H "Authorization: Bearer $MAILBOX_KEY" -H 'Content-Type: application/json' \\\n      -d ${body}`;
  const field = (path: string) => `node -pe 'JSON.parse(require("fs").readFileSync(0, "utf8")).${path}'`;
  return [
    `    export MAILBOX_URL=${endpoints.http} MAILBOX_KEY=${apiKey}`,
    '',
    `1. Create an inbox (${address}):`,
    '',
    `    INBOX_ID=$(${curl('create_inbox', `'{"username":"${DEV_INBOX}","display_name":"Agent"}'`)} | ${field('id')})`,
    '',
    `2. Send a first test mail (to the space's human); it lands in ${join(config.dataDir, 'outbox')}/:`,
    '',
    `    ${curl('send_email', `"{\\"inbox_id\\":\\"$INBOX_ID\\",\\"to\\":\\"${DEV_HUMAN}\\",\\"test\\":true,\\"subject\\":\\"Premier essai\\",\\"text\\":\\"Bonjour !\\"}"`)}`,
    '',
    '3. Send one in over SMTP, then read it:',
    '',
    `    printf 'From: ${PEER}\\r\\nTo: ${address}\\r\\nSubject: Bonjour\\r\\n\\r\\nUne premiere reponse.\\r\\n' |`,
    `      curl -s smtp://${endpoints.smtp} --mail-from ${PEER} --mail-rcpt ${address} -T -`,
    `    THREAD_ID=$(${curl('list_threads', `'{"contact":"${PEER}"}'`)} | ${field('items[0].id')})`,
    `    ${curl('get_thread', `"{\\"thread_id\\":\\"$THREAD_ID\\"}"`)}`,
    '',
    'Or with the CLI: `mailbox call <tool> [json]`, and `mailbox tail` to follow the events.',
  ].join('\n');
}
