/** The runtime a command of `mailbox` opens: its Redis (the embedded default when none is named) and its master key. */
import { join } from 'node:path';
import { masterKeyFile } from '../crypto.js';
import type { Config } from '../config.js';
import { MailboxError } from '../errors.js';
import { startLocalRedis, type LocalRedis } from '../redis/local.js';
import { createRuntime, type Runtime } from '../runtime.js';
import { composeRuntime } from './compose.js';
import type { CliIo } from './main.js';

/** With no REDIS_URL nor cluster, the embedded default: a local redis-server with its data under ./var. */
export async function openRuntime(config: Config): Promise<{ rt: Runtime; local: LocalRedis | null }> {
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

/** Runs an admin command on a runtime, then closes it; a refusal prints `<code>: <message>`, exit 1. */
export async function withRuntime(config: Config, io: CliIo, work: (rt: Runtime) => Promise<number>): Promise<number> {
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
