/**
 * `mailbox serve --dev` (`npm run dev`): the embedded default set up for trying, not for production.
 * The window is always open, there is no spacing, campaigns are fed every second, mail lands in
 * <MAILBOX_DATA_DIR>/outbox, webhooks may go to http://localhost, and a verified dev space on a plan is
 * made once, its key printed that once with ready commands. The space has its own sending domain,
 * verified: the dev mode's DNS answers its records on loopback (DNS_SERVERS points there, every other
 * question goes on to the resolvers the service would have used), so own-domain inboxes and campaigns
 * work at once. Later starts reuse the space: its id is kept in <MAILBOX_DATA_DIR>/dev-space.json,
 * never its key (only the key's hash is stored, in Redis); `--new-key` mints another when it is lost.
 */
import { getServers } from 'node:dns';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { addDomain, domainView, readDomain, verifyDomain } from '../../actors/domain.js';
import { accessOfKey, createOperatorKey, createSpace, listKeys } from '../../actors/space.js';
import { iso } from '../clock.js';
import type { Config } from '../config.js';
import type { DnsServer } from '../domains/dns-server.js';
import { MailboxError } from '../errors.js';
import { PERMISSIONS } from '../record-schemas.js';
import type { Runtime } from '../runtime.js';
import { parseSendWindow } from '../sending/window.js';

const DEV_HUMAN = 'dev@example.com';
const DEV_PLAN = 'starter';
const DEV_INBOX = 'agent';
const PEER = 'friend@example.org';
/** The dev space's own sending domain; `.test` is reserved (RFC 6761): no real resolver answers it. */
export const DEV_DOMAIN = 'dev.mailbox.test';
/** Who the quick start's first campaign writes to (documentation domains: nothing leaves anyway). */
const CAMPAIGN_CONTACTS = [
  { email: 'ana@example.com', name: 'Ana' },
  { email: 'leo@example.net', name: 'Léo' },
];
/** How often the dev mode's feeder visits running campaigns: their first messages come at once. */
const DEV_CAMPAIGN_FEED_MS = 1000;

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

/**
 * The dev mode's DNS on loopback: the dev domain's records (published by announceDevSpace), every other
 * question passed on to DNS_SERVERS, else to the system's resolvers.
 */
export async function startDevDns(config: Config): Promise<DnsServer> {
  // Loaded here: a start without --dev does not load the DNS server.
  const { startDnsServer } = await import('../domains/dns-server.js');
  return startDnsServer({ zones: [DEV_DOMAIN], upstream: config.dnsServers ?? getServers() });
}

/**
 * The settings of the dev mode over the environment's: only the embedded default runs it (devRefusal).
 * `dnsAddress`: the dev mode's DNS (startDevDns).
 */
export const devConfig = (config: Config, dnsAddress: string): Config => ({
  ...config,
  redisUrl: null,
  sendWindow: parseSendWindow('always'),
  spacingSeconds: 0,
  campaignFeedMs: DEV_CAMPAIGN_FEED_MS,
  outbound: { kind: 'outbox' },
  dnsServers: [dnsAddress],
  webhookAllowLoopback: true,
  webhookAllowHttpLocalhost: true,
});

interface DevState {
  space_id: string;
  key_printed_at: string;
}

const stateFile = (config: Config): string => join(config.dataDir, 'dev-space.json');

const writeState = (config: Config, spaceId: string, now: number): void =>
  writeFileSync(
    stateFile(config),
    JSON.stringify({ space_id: spaceId, key_printed_at: iso(now) } satisfies DevState) + '\n',
  );

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
 * The dev space's own domain, registered once, its records published on the dev DNS, verified when it
 * is not (a start without the dev mode's DNS may have suspended it). Null when done, else why not (an
 * earlier dev space of this Redis holds the domain, the space lost its plan or its keys...).
 */
async function devDomain(rt: Runtime, dns: DnsServer, spaceId: string): Promise<string | null> {
  const manager = (await listKeys(rt, spaceId)).find((key) => key.permissions.includes('manage_inboxes'));
  const access = manager && (await accessOfKey(rt, spaceId, manager.id));
  if (!access) return `No key of the dev space may manage inboxes: ${DEV_DOMAIN} is not set up.`;
  try {
    const stored = (await readDomain(rt, spaceId, DEV_DOMAIN)) ?? (await addDomain(rt, access, DEV_DOMAIN));
    dns.publish(domainView(rt, stored).records);
    if (stored.status !== 'verified') await verifyDomain(rt, access, DEV_DOMAIN);
    return null;
  } catch (error) {
    // The dev mode starts all the same: the space works without its domain (shared-domain inboxes, no campaign).
    if (!(error instanceof MailboxError)) throw error;
    if (error.code === 'domain_taken')
      return `${DEV_DOMAIN} belongs to another space of this Redis (an earlier dev space): remove ${rt.config.dataDir} to start afresh.`;
    return `${DEV_DOMAIN} could not be set up (${error.code}: ${error.message}).`;
  }
}

/**
 * Makes or reuses the dev space and its own domain, and prints the banner: with the key and the ready
 * commands when a key was made now, else where it was printed.
 */
export async function announceDevSpace(
  rt: Runtime,
  dns: DnsServer,
  endpoints: Endpoints,
  newKey: boolean,
  out: (line: string) => void,
): Promise<void> {
  const config = rt.config;
  const kept = readState(config);
  // A kept id whose space is gone (its Redis data removed) counts as none: a new dev space is made.
  const spaceId = kept && (await listKeys(rt, kept.space_id)).length ? kept.space_id : null;
  out(banner(config));
  let apiKey: string | null = null;
  let note: string;
  if (spaceId && !newKey) {
    note = keptSpaceNote(config, endpoints, spaceId, kept!.key_printed_at);
  } else if (spaceId) {
    const spec = {
      name: `dev ${iso(rt.clock.now())}`,
      permissions: [...PERMISSIONS],
      inbox_ids: null,
      daily_cap: null,
    };
    apiKey = (await createOperatorKey(rt, spaceId, spec)).api_key;
    note = 'A new key for the dev space (its former keys still work):';
    writeState(config, spaceId, rt.clock.now());
  } else {
    const created = await createSpace(rt, { human: DEV_HUMAN, name: 'dev', plan: DEV_PLAN, verified: true });
    apiKey = created.api_key;
    note = `A dev space, verified, on the ${DEV_PLAN} plan, human ${DEV_HUMAN}, with its own sending domain ${DEV_DOMAIN}. Its key, shown this once (only its hash is kept):`;
    writeState(config, created.space_id, rt.clock.now());
  }
  const domainProblem = await devDomain(rt, dns, spaceId ?? readState(config)!.space_id);
  if (domainProblem) out(domainProblem);
  out(apiKey ? `${note}\n\n${readyCommands(config, endpoints, apiKey)}` : note);
}

function banner(config: Config): string {
  const rule = '='.repeat(78);
  return [
    rule,
    '  MAILBOX DEVELOPMENT MODE: for trying on this machine, never for production.',
    '  Sending window always open, no spacing between messages, campaigns fed every second,',
    `  nothing leaves: mail lands in ${join(config.dataDir, 'outbox')}/. Webhooks may go to http://localhost.`,
    `  The dev space's domain ${DEV_DOMAIN} is answered by a DNS on loopback, for this process only.`,
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

/** A JSON body for the shell: in single quotes, or in double quotes where a `$NAME` value is a shell variable. */
function shellJson(body: unknown): string {
  const json = JSON.stringify(body);
  return /[$']/.test(json) ? `"${json.replace(/["\\]/g, '\\$&')}"` : `'${json}'`;
}

/** The ready commands of README's quick start, numbered; each block runs as it is in a POSIX shell. */
function readyCommands(config: Config, endpoints: Endpoints, apiKey: string): string {
  const address = `${DEV_INBOX}@${DEV_DOMAIN}`;
  const outbox = join(config.dataDir, 'outbox');
  const curl = (tool: string, body: unknown) =>
    `curl -s -w '\\n' "$MAILBOX_URL/v1/${tool}" -H "Authorization: Bearer $MAILBOX_KEY" -H 'Content-Type: application/json' \\\n      -d ${shellJson(body)}`;
  const field = (path: string) => `node -pe 'JSON.parse(require("fs").readFileSync(0, "utf8")).${path}'`;
  const campaign = {
    name: 'Premier essai',
    audience_id: '$AUDIENCE_ID',
    inbox_ids: ['$INBOX_ID'],
    subject: 'Bonjour {{name}}',
    text: 'Bonjour {{name}}, voici un premier message de campagne.',
    follow_ups: [{ after_days: 3, text: 'Bonjour {{name}}, je me permets de vous relancer.' }],
  };
  return [
    `    export MAILBOX_URL=${endpoints.http} MAILBOX_KEY=${apiKey}`,
    '',
    `1. Create an inbox on the dev space's own domain (${address}):`,
    '',
    `    INBOX_ID=$(${curl('create_inbox', { username: DEV_INBOX, display_name: 'Agent' })} | ${field('id')})`,
    '',
    `2. Send a first test mail (to the space's human); it lands in ${outbox}/:`,
    '',
    `    ${curl('send_email', { inbox_id: '$INBOX_ID', to: DEV_HUMAN, test: true, subject: 'Premier essai', text: 'Bonjour !' })}`,
    '',
    '3. Send one in over SMTP, then read it:',
    '',
    `    printf 'From: ${PEER}\\r\\nTo: ${address}\\r\\nSubject: Bonjour\\r\\n\\r\\nUne premiere reponse.\\r\\n' |`,
    `      curl -s smtp://${endpoints.smtp} --mail-from ${PEER} --mail-rcpt ${address} -T -`,
    `    THREAD_ID=$(${curl('list_threads', { contact: PEER })} | ${field('items[0].id')})`,
    `    ${curl('get_thread', { thread_id: '$THREAD_ID' })}`,
    '',
    `4. A first campaign, to two contacts, with a follow-up: its two messages land in ${outbox}/`,
    '   within seconds, the follow-up 3 working days later to whoever has not answered; campaign_status',
    '   tells where it stands:',
    '',
    `    AUDIENCE_ID=$(${curl('create_audience', { name: 'Premiers contacts' })} | ${field('audience.id')})`,
    `    ${curl('add_contacts', { audience_id: '$AUDIENCE_ID', contacts: CAMPAIGN_CONTACTS })}`,
    `    CAMPAIGN_ID=$(${curl('create_campaign', campaign)} | ${field('campaign.id')})`,
    `    ${curl('start_campaign', { campaign_id: '$CAMPAIGN_ID' })}`,
    '',
    'Or with the CLI: `mailbox call <tool> [json]`, and `mailbox tail` to follow the events.',
  ].join('\n');
}
