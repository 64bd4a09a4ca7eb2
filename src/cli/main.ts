/**
 * `mailbox serve [--role all|http|smtp|worker]` runs the service (`--dev`: the development mode,
 * src/cli/dev.ts); `mailbox admin ...` is the operator's CLI (decisions.md 8), reading the same
 * environment; `mailbox call` and `mailbox tail` are the user's, over HTTP (src/cli/user.ts).
 */
import { isAddress } from '../sending/validate.js';
import { parseArgs } from 'node:util';
import { createPublicKey } from 'node:crypto';
import { join } from 'node:path';
import { createSpace, setPlan } from '../../actors/space.js';
import { resumeInbox, spaceOfAddress } from '../../actors/inbox.js';
import { recountInbox } from '../../actors/recount.js';
import { indexEveryHuman } from '../../actors/human-index.js';
import { MailboxError } from '../errors.js';
import { idPattern } from '../ids.js';
import { closeQueues } from '../redis/queues.js';
import { masterKeyFile } from '../crypto.js';
import { closeTransport } from '../delivery/transports.js';
import { startDomainWorker } from '../workers/domains.js';
import { startSendWorker } from '../workers/send.js';
import { startEraseWorker } from '../workers/erase.js';
import { startBlobWorker } from '../workers/blobs.js';
import { startCampaignFeeder } from '../workers/campaigns.js';
import { startWebhookWorker } from '../webhooks/worker.js';
import { loadConfig, type Config } from '../config.js';
import { startHttp } from '../http/server.js';
import { startSmtp } from '../smtp/server.js';
import { startLocalRedis, type LocalRedis } from '../redis/local.js';
import { createRuntime, type Runtime } from '../runtime.js';
import { composeRuntime } from './compose.js';
import { announceDevSpace, devConfig, devRefusal } from './dev.js';
import { warnAtStart } from './start-checks.js';
import { callCommand, tailCommand } from './user.js';

export interface CliIo {
  env: Record<string, string | undefined>;
  out: (line: string) => void;
  err: (line: string) => void;
  /** Ends a command that runs until interrupted (`tail`); the process's signals do otherwise. */
  signal?: AbortSignal;
}

const USAGE = `usage:
  mailbox serve [--role all|http|smtp|worker]
  mailbox serve --dev [--new-key]      development mode: a dev space, ready commands, mail in var/outbox
  mailbox call <tool> [json]           POST /v1/<tool> to MAILBOX_URL with MAILBOX_KEY, prints the answer
  mailbox tail [--after <cursor>]      follows event_feed, one event per line
  mailbox admin create-space --human <email> [--name <name>] [--plan <plan>] [--verified] [--managed]
  mailbox admin resume-inbox <inbox_id> --space <space_id>
  mailbox admin resume-inbox <address>
  mailbox admin set-plan <space_id> <plan>
  mailbox admin recount <inbox_id> --space <space_id>
  mailbox admin service-dkim-records
  mailbox admin index-humans           lets the humans of spaces made before the sign-in existed sign in`;

/** `all` (the default) runs the front end and the workers in one process; the others split them. */
const ROLES = ['all', 'http', 'smtp', 'worker'] as const;

/** With no REDIS_URL nor cluster, the embedded default: a local redis-server with its data under ./var. */
async function openRuntime(config: Config): Promise<{ rt: Runtime; local: LocalRedis | null }> {
  if (config.redisUrl || config.redisClusterNodes) return { rt: composeRuntime(createRuntime(config)), local: null };
  const local = await startLocalRedis(join(config.dataDir, 'redis'), { persist: true });
  return { rt: composeRuntime(createRuntime({ ...config, redisUrl: local.url })), local };
}

/**
 * Without MAILBOX_MASTER_KEY: the key kept in MAILBOX_MASTER_KEY_FILE, made there once (docker-compose.yml
 * keeps it in the data volume), or in embedded mode (no REDIS_URL nor cluster) in
 * <MAILBOX_DATA_DIR>/master.key, so unsubscribe links are signed and DKIM keys sealed out of the box.
 * Any other deployment sets one of the two: its processes must share one key.
 */
export function withMasterKey(config: Config, env: CliIo['env']): Config {
  if (config.masterKey) return config;
  const embedded = !config.redisUrl && !config.redisClusterNodes;
  const file = env.MAILBOX_MASTER_KEY_FILE || (embedded ? join(config.dataDir, 'master.key') : null);
  return file ? { ...config, masterKey: masterKeyFile(file) } : config;
}

/** Where a client on this machine reaches a server listening on `host`. */
const reachable = (host: string): string => (['0.0.0.0', '::'].includes(host) ? '127.0.0.1' : host);

async function serve(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { role: { type: 'string', default: 'all' }, dev: { type: 'boolean', default: false }, 'new-key': { type: 'boolean', default: false } },
  });
  const role = ROLES.find((r) => r === values.role);
  if (!role || (values.dev && role !== 'all') || (values['new-key'] && !values.dev)) {
    io.err(role ? '--dev runs every role in one process, and --new-key goes with --dev' : `unknown role "${values.role}"; roles available: ${ROLES.join(', ')}`);
    return 2;
  }
  const loaded = loadConfig(io.env);
  const refusal = values.dev ? devRefusal(loaded) : null;
  if (refusal) {
    io.err(refusal);
    return 2;
  }
  const config = withMasterKey(values.dev ? devConfig(loaded) : loaded, io.env);
  const { rt, local } = await openRuntime(config);
  warnAtStart(config, rt.log);
  const http = role === 'all' || role === 'http' ? await startHttp(rt, { port: config.port, host: config.host }) : null;
  const smtp = role === 'all' || role === 'smtp' ? await startSmtp(rt, { port: config.smtpPort, host: config.smtpHost }) : null;
  const workers = role === 'all' || role === 'worker' ? [startDomainWorker(rt), startSendWorker(rt), startEraseWorker(rt), startBlobWorker(rt), startCampaignFeeder(rt)] : [];
  // Without a master key no webhook can be declared (encryption_unavailable), nor its secret opened.
  if ((role === 'all' || role === 'worker') && config.webhooksEnabled && config.masterKey) workers.push(startWebhookWorker(rt));
  rt.log.info('mailbox running', {
    role,
    http: http ? `http://${config.host}:${http.port}` : null,
    smtp: smtp ? `${config.smtpHost}:${smtp.port}` : null,
    redis: local ? local.url : 'external',
  });
  if (values.dev) {
    const endpoints = { http: `http://${reachable(config.host)}:${http!.port}`, smtp: `${reachable(config.smtpHost)}:${smtp!.port}` };
    await announceDevSpace(rt, endpoints, values['new-key'], io.out);
  }
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await http?.close();
  await smtp?.close();
  await Promise.all(workers.map((worker) => worker.close()));
  await closeQueues(rt);
  await closeTransport(rt);
  rt.redis.disconnect();
  await local?.stop();
  return 0;
}

/**
 * `resume-inbox <inbox_id> --space <space_id>`, or `resume-inbox <address>`: inbox ids are not indexed
 * across spaces, so either the space is given or the address index finds both.
 */
async function resumeInboxCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { space: { type: 'string' } } });
  const [target] = positionals;
  if (!target || positionals.length > 1) {
    io.err(USAGE);
    return 2;
  }
  const byAddress = target.includes('@');
  if (!byAddress && (!values.space || !new RegExp(idPattern('space')).test(values.space) || !new RegExp(idPattern('inbox')).test(target))) {
    io.err('give an inbox id (inb_...) with --space <space_id> (spc_...), or the inbox address');
    return 2;
  }
  return withRuntime(loadConfig(io.env), io, async (rt) => {
    const claim = byAddress ? await spaceOfAddress(rt, target) : null;
    if (byAddress && claim?.state !== 'active') {
      io.err(`no live inbox has the address ${target}`);
      return 1;
    }
    const spaceId = claim ? claim.space_id : values.space!;
    const inbox = await resumeInbox(rt, spaceId, claim ? claim.inbox_id : target);
    io.out(JSON.stringify({ space_id: spaceId, inbox_id: inbox.id, address: inbox.address, status: inbox.status }));
    return 0;
  });
}

/** Runs an admin command on a runtime, then closes it; a refusal prints `<code>: <message>`, exit 1. */
async function withRuntime(config: Config, io: CliIo, work: (rt: Runtime) => Promise<number>): Promise<number> {
  // The admin commands open sealed secrets as serve does: the same master key, from the same file.
  const { rt, local } = await openRuntime(withMasterKey(config, io.env));
  try {
    return await work(rt);
  } catch (error) {
    if (!(error instanceof MailboxError)) throw error;
    io.err(`${error.code}: ${error.message}`);
    return 1;
  } finally {
    rt.redis.disconnect();
    await local?.stop();
  }
}

/**
 * `recount <inbox_id> --space <space_id>`: the inbox's queued and drafts counters and its day
 * reservations recounted from what it holds (actors/recount.ts), before and after as one JSON line.
 */
async function recountCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { space: { type: 'string' } } });
  const [inboxId] = positionals;
  if (positionals.length !== 1 || !new RegExp(idPattern('inbox')).test(inboxId!) || !values.space || !new RegExp(idPattern('space')).test(values.space)) {
    io.err('give an inbox id (inb_...) with --space <space_id> (spc_...)');
    return 2;
  }
  return withRuntime(loadConfig(io.env), io, async (rt) => {
    const counts = await recountInbox(rt, values.space!, inboxId!);
    io.out(JSON.stringify({ space_id: values.space, inbox_id: inboxId, ...counts }));
    return 0;
  });
}

/** `set-plan <space_id> <plan>`: the operator's plan, journaled with the service as actor; `none` ends it. */
async function setPlanCommand(args: string[], io: CliIo): Promise<number> {
  const [spaceId, plan] = args;
  const config = loadConfig(io.env);
  if (args.length !== 2 || !new RegExp(idPattern('space')).test(spaceId!)) {
    io.err(USAGE);
    return 2;
  }
  if (plan !== 'none' && !config.plans[plan!]) {
    io.err(`unknown plan "${plan}"; plans: none, ${Object.keys(config.plans).join(', ')}`);
    return 2;
  }
  return withRuntime(config, io, async (rt) => {
    await setPlan(rt, spaceId!, plan!);
    io.out(JSON.stringify({ space_id: spaceId, plan }));
    return 0;
  });
}

/**
 * `service-dkim-records`: the TXT records to publish for SERVICE_DKIM_KEY_FILE, one JSON line per
 * domain it signs for (the common domain, the service's own domain).
 */
function serviceDkimRecordsCommand(io: CliIo): number {
  const config = loadConfig(io.env);
  if (!config.serviceDkim) {
    io.err('SERVICE_DKIM_KEY_FILE is not set: common-domain and service mail leave unsigned');
    return 2;
  }
  const publicKey = createPublicKey(config.serviceDkim.privateKey).export({ type: 'spki', format: 'der' }).toString('base64');
  const domains = new Set([config.commonDomain, config.serviceDomains[0] ?? config.mxHost].filter(Boolean));
  for (const domain of domains) {
    io.out(JSON.stringify({ name: `${config.serviceDkim.selector}._domainkey.${domain}`, type: 'TXT', value: `v=DKIM1; k=rsa; p=${publicKey}` }));
  }
  return 0;
}

async function admin(args: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = args;
  if (command === 'service-dkim-records' && rest.length === 0) return serviceDkimRecordsCommand(io);
  if (command === 'resume-inbox') return resumeInboxCommand(rest, io);
  if (command === 'set-plan') return setPlanCommand(rest, io);
  if (command === 'recount') return recountCommand(rest, io);
  if (command === 'index-humans' && rest.length === 0) {
    return withRuntime(loadConfig(io.env), io, async (rt) => {
      io.out(JSON.stringify({ indexed: await indexEveryHuman(rt) }));
      return 0;
    });
  }
  if (command !== 'create-space') {
    io.err(USAGE);
    return 2;
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      human: { type: 'string' },
      name: { type: 'string' },
      plan: { type: 'string' },
      verified: { type: 'boolean', default: false },
      managed: { type: 'boolean', default: false },
    },
  });
  const config = loadConfig(io.env);
  if (!values.human || !isAddress(values.human.trim().toLowerCase())) {
    io.err('--human <email> is required and must be an e-mail address');
    return 2;
  }
  if (values.plan && values.plan !== 'none' && !config.plans[values.plan]) {
    io.err(`unknown plan "${values.plan}"; plans: none, ${Object.keys(config.plans).join(', ')}`);
    return 2;
  }
  const { rt, local } = await openRuntime(config);
  try {
    const created = await createSpace(rt, {
      human: values.human,
      name: values.name,
      plan: values.plan,
      verified: values.verified,
      managed: values.managed,
    });
    io.out(JSON.stringify({ space_id: created.space_id, api_key: created.api_key }));
    return 0;
  } finally {
    rt.redis.disconnect();
    await local?.stop();
  }
}

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [command, ...args] = argv;
  try {
    if (command === 'serve') return await serve(args, io);
    if (command === 'admin') return await admin(args, io);
    if (command === 'call') return await callCommand(args, io);
    if (command === 'tail') return await tailCommand(args, io);
    io.err(USAGE);
    return 2;
  } catch (error) {
    io.err(error instanceof Error ? error.message : String(error));
    return 1;
  }
}
