/**
 * Platform-wide dead addresses (hard bounces): no space may write to them. They span spaces, so they
 * live under their own tags, sharded by a hash of the address; a send reads its shard before the
 * space's script (a dead address is permanent, so the read needs no atomicity with the send).
 */
import type { Runtime } from '../src/runtime.js';
import { globalKeys, shardOf } from '../src/redis/keys.js';

const SHARDS = 16;

export const deadAddressKey = (address: string): string => globalKeys.deadAddresses(shardOf(address, SHARDS));

/** The entry JSON when the address is dead, else null. */
export async function deadAddress(rt: Runtime, address: string): Promise<string | null> {
  return rt.redis.hget(deadAddressKey(address), address);
}

/**
 * Marks an address dead for every space (a hard bounce saying the mailbox does not exist). The first
 * report stays: HSETNX is one command, so no script is needed. True when newly marked.
 */
export async function markDeadAddress(
  rt: Runtime,
  address: string,
  entry: { status_code: string; space_id: string; message_id: string; at: string },
): Promise<boolean> {
  return (await rt.redis.hsetnx(deadAddressKey(address), address, JSON.stringify(entry))) === 1;
}
