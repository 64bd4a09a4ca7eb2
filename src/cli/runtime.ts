/** The runtime a command of `mailbox` opens: its Redis (the embedded default when none is named) and its master key. */
import { join } from 'node:path';
import { masterKeyFile } from '../crypto.js';
import type { Config } from '../config.js';
import { MailboxError } from '../errors.js';
import { startLocalRedis, type LocalRedis } from '../redis/local.js';
import { createRuntime, type Runtime } from '../runtime.js';
import { checkStorageFormat } from '../storage/format.js';
import { composeRuntime } from './compose.js';
import type { CliIo } from './io.js';

/**
 * With no REDIS_URL nor cluster, the embedded default: a local redis-server with its data under ./var.
 * The store's format is checked first (src/storage/format.ts): a store to migrate, or written by a later
 * version, starts nothing; only `mailbox admin migrate` opens it as it is (`asStored`).
 */
export async function openRuntime(
  config: Config,
  options: { asStored?: boolean } = {},
): Promise<{ rt: Runtime; local: LocalRedis | null }> {
  const local =
    config.redisUrl || config.redisClusterNodes
      ? null
      : await startLocalRedis(join(config.dataDir, 'redis'), { persist: true });
  const rt = composeRuntime(createRuntime(local ? { ...config, redisUrl: local.url } : config));
  if (options.asStored) return { rt, local };
  try {
    await checkStorageFormat(rt.redis);
  } catch (error) {
    rt.redis.disconnect();
    await local?.stop();
    throw error;
  }
  return { rt, local };
}

/**
 * Without MAILBOX_MASTER_KEY: the key kept in MAILBOX_MASTER_KEY_FILE, made there once (docker-compose.yml
 * keeps it in the data volume), or in embedded mode (no REDIS_URL nor cluster) in
 * <MAILBOX_DATA_DIR>/master.key, so unsubscribe links are signed and DKIM keys sealed out of the box.
 * Any other deployment sets one of the two: its processes must share one key.
 */
export function withMasterKey(config: Config): Config {
  if (config.masterKey) return config;
  const embedded = !config.redisUrl && !config.redisClusterNodes;
  const file = config.masterKeyFile ?? (embedded ? join(config.dataDir, 'master.key') : null);
  return file ? { ...config, masterKey: masterKeyFile(file) } : config;
}

/** Runs an admin command on a runtime, then closes it; a refusal prints `<code>: <message>`, exit 1. */
export async function withRuntime(
  config: Config,
  io: CliIo,
  work: (rt: Runtime) => Promise<number>,
  options: { asStored?: boolean } = {},
): Promise<number> {
  // The admin commands open sealed secrets as serve does: the same master key, from the same file.
  const { rt, local } = await openRuntime(withMasterKey(config), options);
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
