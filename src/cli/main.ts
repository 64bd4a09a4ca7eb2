/**
 * `mailbox serve [--role http]` runs the service; `mailbox admin ...` is the operator's CLI
 * (decisions.md 8). Both read the same environment.
 */
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { createSpace } from '../../actors/space.js';
import { loadConfig, type Config } from '../config.js';
import { startHttp } from '../http/server.js';
import { startLocalRedis, type LocalRedis } from '../redis/local.js';
import { createRuntime, type Runtime } from '../runtime.js';

export interface CliIo {
  env: Record<string, string | undefined>;
  out: (line: string) => void;
  err: (line: string) => void;
}

const USAGE = `usage:
  mailbox serve [--role http]
  mailbox admin create-space --human <email> [--name <name>] [--plan <plan>] [--verified] [--managed]`;

/** With no REDIS_URL nor cluster, the embedded default: a local redis-server with its data under ./var. */
async function openRuntime(config: Config): Promise<{ rt: Runtime; local: LocalRedis | null }> {
  if (config.redisUrl || config.redisClusterNodes) return { rt: createRuntime(config), local: null };
  const local = await startLocalRedis(join(config.dataDir, 'redis'), { persist: true });
  return { rt: createRuntime({ ...config, redisUrl: local.url }), local };
}

async function serve(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args, options: { role: { type: 'string', default: 'http' } } });
  if (values.role !== 'http') {
    io.err(`unknown role "${values.role}"; roles available: http`);
    return 2;
  }
  const config = loadConfig(io.env);
  const { rt, local } = await openRuntime(config);
  const http = await startHttp(rt, { port: config.port, host: config.host });
  rt.log.info('mailbox listening', { http: `http://${config.host}:${http.port}`, redis: local ? local.url : 'external' });
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  http.close();
  rt.redis.disconnect();
  await local?.stop();
  return 0;
}

async function admin(args: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = args;
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
  if (!values.human || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(values.human)) {
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
    io.err(USAGE);
    return 2;
  } catch (error) {
    io.err(error instanceof Error ? error.message : String(error));
    return 1;
  }
}
