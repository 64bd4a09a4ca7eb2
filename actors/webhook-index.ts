/**
 * The Webhook actor's wake index: which spaces have webhook deliveries to make, and who makes them. A sharded index (`{wh:<n>}` keys,
 * never a space's tag) scores each space by when it is next due:
 *  - every script that appended events wakes its space (src/redis/scripts.ts calls wakeSpace after it,
 *    wired by the composition root, src/cli/compose.ts);
 *  - a worker claims due spaces for a lease (score = lease end = the claim's token), delivers, then
 *    settles: due again at a retry time, at once if events came meanwhile (the dirty mark) or a webhook was
 *    declared meanwhile (whatever the old declaration's retry time), else out;
 *  - a worker that dies never settles: the lease ends and another worker claims the space, whose
 *    unacknowledged stream entries are still pending in its consumer group;
 *  - a sweeper repairs a wake lost between a script and its wake (a process killed in between).
 * One claim per space at a time is what keeps a space's events in order per endpoint.
 */
import { globalKeys, shardOf, spaceKeys } from '../src/redis/keys.js';
import type { Runtime } from '../src/runtime.js';
import * as webhookLua from './bindings/webhook.generated.js';

export const WEBHOOK_SHARDS = 8;
/** The consumer group of the webhook workers on each space's stream. */
export const WEBHOOK_GROUP = 'webhooks';

export const webhookShard = (spaceId: string): number => shardOf(spaceId, WEBHOOK_SHARDS);

/** A shard's keys, named as lua/webhook/*'s headers name them. */
const shardKeys = (rt: Runtime, shard: number) => {
  const index = rt.config.webhookIndex;
  return {
    due: globalKeys.webhookDue(index, shard),
    dirty: globalKeys.webhookDirty(index, shard),
    claims: globalKeys.webhookClaims(index, shard),
  };
};

/** A declared webhook's space joins the sweeper's index (before its declaration, so never outside it). */
export async function registerSpace(rt: Runtime, spaceId: string): Promise<void> {
  await rt.redis.sadd(globalKeys.webhookSpaces(rt.config.webhookIndex, webhookShard(spaceId)), spaceId);
}

/** An erased space leaves the index: its claim, its due time and its place in the sweeper's list. */
export async function forgetSpace(rt: Runtime, spaceId: string): Promise<void> {
  const shard = webhookShard(spaceId);
  const { due, dirty, claims } = shardKeys(rt, shard);
  await rt.redis.srem(globalKeys.webhookSpaces(rt.config.webhookIndex, shard), spaceId);
  await rt.redis.zrem(due, spaceId);
  await rt.redis.srem(dirty, spaceId, `${spaceId} now`);
  await rt.redis.hdel(claims, spaceId);
}

/**
 * `now` brings a space waiting for a retry forward (a new declaration); otherwise its retry time holds.
 * A space that becomes due now is announced to the idle workers (one PUBLISH when a space goes from
 * idle to due, none while it is held or already due).
 */
export async function wakeSpace(rt: Runtime, spaceId: string, mode: 'now' | '' = ''): Promise<void> {
  const { woke } = await webhookLua.wakeSpace(rt.scripts, shardKeys(rt, webhookShard(spaceId)), {
    spaceId,
    now: rt.clock.now(),
    mode,
  });
  if (woke) await rt.redis.publish(globalKeys.webhookWakes(rt.config.webhookIndex), spaceId);
}

export interface Claim {
  spaces: string[];
  token: string;
  /** The shard's earliest due time left (ms), or null when it holds no space. */
  next: number | null;
}

export async function claimSpaces(rt: Runtime, shard: number, count: number): Promise<Claim> {
  const reply = await webhookLua.claimSpaces(rt.scripts, shardKeys(rt, shard), {
    now: rt.clock.now(),
    lease: rt.config.webhookLeaseMs,
    most: count,
  });
  // cjson writes an empty list as {}.
  return { spaces: Array.isArray(reply.spaces) ? reply.spaces : [], token: reply.token, next: reply.next };
}

/** `next`: when the space is due again (ms), or null when nothing waits. */
export async function settleSpace(rt: Runtime, spaceId: string, token: string, next: number | null): Promise<void> {
  await webhookLua.settleSpace(rt.scripts, shardKeys(rt, webhookShard(spaceId)), {
    spaceId,
    token,
    next: next ?? '',
    now: rt.clock.now(),
  });
}

/** Whether any space declared a webhook: 8 SCARDs, read once a sweep period (the worker's warnings depend on it). */
export async function webhooksDeclared(rt: Runtime): Promise<boolean> {
  const counts = await Promise.all(
    Array.from({ length: WEBHOOK_SHARDS }, (_, shard) =>
      rt.redis.scard(globalKeys.webhookSpaces(rt.config.webhookIndex, shard)),
    ),
  );
  return counts.some((count) => count > 0);
}

/** How often one worker of the fleet looks for spaces with undelivered events that nobody woke. */
export const SWEEP_EVERY_MS = 60_000;
/**
 * Spaces one sweep looks at, at most: the safety net costs Redis the same whatever the number of spaces
 * with a webhook; a larger fleet is covered over several periods (100,000 spaces in 100 minutes), and a
 * space whose wake was lost is woken sooner by its next event's own wake.
 */
const SWEEP_SPACES = 1_000;

/**
 * One pass of the safety net, by at most one worker per period: about the next `most` spaces that
 * declared a webhook, taken up where the last pass stopped; each that has entries its group has not
 * read, or has not acknowledged, is woken. A waiting retry keeps its time. Returns the number of spaces
 * woken, or null when another worker swept this period.
 */
export async function sweepWebhooks(rt: Runtime, most = SWEEP_SPACES): Promise<number | null> {
  const index = rt.config.webhookIndex;
  if ((await rt.redis.set(globalKeys.webhookSweep(index), String(rt.clock.now()), 'PX', SWEEP_EVERY_MS, 'NX')) !== 'OK')
    return null;
  const place = (await rt.redis.get(globalKeys.webhookSweepPlace(index)))?.split(':') ?? [];
  let shard = Number(place[0] ?? 0) % WEBHOOK_SHARDS;
  let cursor = place[1] ?? '0';
  let looked = 0;
  let woken = 0;
  // Each shard's end counts once: a pass never goes round the index twice.
  for (let ended = 0; ended < WEBHOOK_SHARDS && looked < most;) {
    const count = Math.min(200, most - looked);
    const [next, spaces] = await rt.redis.sscan(globalKeys.webhookSpaces(index, shard), cursor, 'COUNT', count);
    for (const spaceId of spaces) {
      looked++;
      if (await undelivered(rt, spaceId)) {
        await wakeSpace(rt, spaceId);
        woken++;
      }
    }
    cursor = next;
    if (cursor === '0') {
      shard = (shard + 1) % WEBHOOK_SHARDS;
      ended++;
    }
  }
  await rt.redis.set(globalKeys.webhookSweepPlace(index), `${shard}:${cursor}`);
  return woken;
}

/** XINFO GROUPS: `lag` is null when Redis cannot tell (after a trim): then look anyway. */
async function undelivered(rt: Runtime, spaceId: string): Promise<boolean> {
  let groups: unknown[][];
  try {
    groups = (await rt.redis.xinfo('GROUPS', spaceKeys(spaceId).events)) as unknown[][];
  } catch {
    return false; // no stream yet
  }
  for (const group of groups) {
    const fields = new Map<unknown, unknown>();
    for (let i = 0; i < group.length; i += 2) fields.set(group[i], group[i + 1]);
    if (fields.get('name') !== WEBHOOK_GROUP) continue;
    return Number(fields.get('pending')) > 0 || fields.get('lag') !== 0;
  }
  return false;
}
