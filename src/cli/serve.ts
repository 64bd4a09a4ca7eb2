/**
 * `mailbox serve [--role all|http|smtp|worker]` (`--dev`: the development mode, src/cli/dev.ts). A
 * role's modules are loaded when it starts: an HTTP front end does not load the SMTP server's
 * parsers and checks, nor a worker the MCP server (BENCHMARKS.md, "Starting a process").
 */
import { parseArgs } from 'node:util';
import { loadConfig, type Config } from '../config.js';
import type { Runtime } from '../runtime.js';
import { closeQueues } from '../redis/queues.js';
import { closeTransport } from '../delivery/transports.js';
import { announceDevSpace, devConfig, devRefusal, startDevDns } from './dev.js';
import type { CliIo } from './io.js';
import { openRuntime, withMasterKey } from './runtime.js';
import { warnAtStart } from './start-checks.js';

/** `all` (the default) runs the front end and the workers in one process; the others split them. */
const ROLES = ['all', 'http', 'smtp', 'worker'] as const;
type Role = (typeof ROLES)[number];

/** The worker role's loops; without a master key no webhook can be declared (encryption_unavailable), nor its secret opened. */
async function startWorkers(rt: Runtime, config: Config): Promise<{ close(): Promise<void> }[]> {
  const [
    { startDomainWorker },
    { startSendWorker },
    { startEraseWorker },
    { startBlobWorker },
    { startCampaignFeeder },
    { startHistoryMover },
    { startWebhookWorker },
  ] = await Promise.all([
    import('../workers/domains.js'),
    import('../workers/send.js'),
    import('../workers/erase.js'),
    import('../workers/blobs.js'),
    import('../workers/campaigns.js'),
    import('../workers/history.js'),
    import('../webhooks/worker.js'),
  ]);
  const workers = [
    startDomainWorker(rt),
    startSendWorker(rt),
    startEraseWorker(rt),
    startBlobWorker(rt),
    startCampaignFeeder(rt),
  ];
  if (config.history.threadsPerMinute) workers.push(startHistoryMover(rt));
  if (config.webhooksEnabled && config.masterKey) workers.push(startWebhookWorker(rt));
  return workers;
}

/** Where a client on this machine reaches a server listening on `host`. */
const reachable = (host: string): string => (['0.0.0.0', '::'].includes(host) ? '127.0.0.1' : host);

export async function serve(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      role: { type: 'string', default: 'all' },
      dev: { type: 'boolean', default: false },
      'new-key': { type: 'boolean', default: false },
    },
  });
  const role = ROLES.find((r) => r === values.role);
  if (!role || (values.dev && role !== 'all') || (values['new-key'] && !values.dev)) {
    io.err(
      role
        ? '--dev runs every role in one process, and --new-key goes with --dev'
        : `unknown role "${values.role}"; roles available: ${ROLES.join(', ')}`,
    );
    return 2;
  }
  const loaded = loadConfig(io.env);
  const refusal = values.dev ? devRefusal(loaded) : null;
  if (refusal) {
    io.err(refusal);
    return 2;
  }
  // Listened for before anything starts: a signal met with no listener yet (during start-up) would end
  // the process at once, without its 'exit', and leave the embedded redis-server it started running.
  const stopped = new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  const devDns = values.dev ? await startDevDns(loaded) : null;
  const config = withMasterKey(devDns ? devConfig(loaded, devDns.address) : loaded);
  const { rt, local } = await openRuntime(config);
  warnAtStart(config, rt.log);
  const runs = (part: Exclude<Role, 'all'>): boolean => role === 'all' || role === part;
  const http = runs('http')
    ? await (await import('../http/server.js')).startHttp(rt, { port: config.port, host: config.host })
    : null;
  const smtp = runs('smtp')
    ? await (await import('../smtp/server.js')).startSmtp(rt, { port: config.smtpPort, host: config.smtpHost })
    : null;
  const submission =
    runs('smtp') && config.submissionPort !== null
      ? await (
          await import('../smtp/submission.js')
        ).startSubmission(rt, { port: config.submissionPort, host: config.smtpHost })
      : null;
  if (devDns) {
    // Before the workers: a domain recheck that fell due while stopped finds the dev domain's records.
    const endpoints = {
      http: `http://${reachable(config.host)}:${http!.port}`,
      smtp: `${reachable(config.smtpHost)}:${smtp!.port}`,
    };
    await announceDevSpace(rt, devDns, endpoints, values['new-key'], io.out);
  }
  const workers = runs('worker') ? await startWorkers(rt, config) : [];
  rt.log.info('mailbox running', {
    role,
    http: http ? `http://${config.host}:${http.port}` : null,
    smtp: smtp ? `${config.smtpHost}:${smtp.port}` : null,
    submission: submission ? `${config.smtpHost}:${submission.port}` : null,
    redis: local ? local.url : 'external',
  });
  await stopped;
  await http?.close();
  await smtp?.close();
  await submission?.close();
  await Promise.all(workers.map((worker) => worker.close()));
  await closeQueues(rt);
  await closeTransport(rt);
  rt.redis.disconnect();
  await local?.stop();
  await devDns?.close();
  return 0;
}
