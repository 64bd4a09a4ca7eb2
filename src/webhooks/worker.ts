/**
 * The webhook workers: claim spaces with events to deliver (actors/webhook-index.ts), read each space's
 * stream through its consumer group, and POST every event, signed, to the space's webhook, in order:
 * a space's next event waits for the previous one's success or final give-up. Retries follow
 * WEBHOOK_RETRY_SCHEDULE (docs/contract.md, Decision 5); after the last one the event is given up and journalled.
 * An entry is acknowledged only after success or give-up. A worker that dies leaves its entries
 * pending in the group and its claim to expire; the next claim of the space reads them first.
 */
import { open } from '../crypto.js';
import { countWebhookAttempt, observeWebhookLag } from '../metrics.js';
import type { Runtime } from '../runtime.js';
import { completeEnvelopes } from '../../actors/events.js';
import {
  acknowledgeDelivered,
  readUndelivered,
  readWebhook,
  recordAttempt,
  webhookContext,
} from '../../actors/webhook.js';
import { WebhookClient } from './client.js';
import { signedHeaders, signingKey } from './signer.js';
import { BLOCKING_OPTIONS, duplicateConnection } from '../redis/connect.js';
import { globalKeys } from '../redis/keys.js';
import {
  claimSpaces,
  settleSpace,
  sweepWebhooks,
  SWEEP_EVERY_MS,
  WEBHOOK_SHARDS,
  webhooksDeclared,
} from '../../actors/webhook-index.js';

/** Entries read per round trip; the webhook's host is resolved and checked again for each batch. */
const BATCH = 100;
/**
 * Delivered entries are acknowledged by tens, in one XACK: a worker that dies sends at most this many
 * again (receivers treat each id once), plus the one in flight, and Redis sees a tenth of the writes.
 * The XACK is not awaited and Redis writes leave at the end of the tick (src/redis/connect.ts): it may
 * trail the next request, which is written at once.
 */
const ACK_EVERY = 10;
/** A space whose delivery broke unexpectedly (Redis away, a secret that does not open) is looked at again after this. */
const ERROR_PAUSE_MS = 5_000;
/** An idle worker's longest pause: 8 claims every 5 s, where a fixed 100 ms poll cost Redis 80 calls a second. */
const IDLE_MS = 5_000;

export interface WebhookWorkerOptions {
  /** Spaces delivered at once by this process (each one strictly in order). */
  concurrency?: number;
  /**
   * Longest pause when no space is due (ms). A space that becomes due (wakeSpace's announcement) or the
   * shards' next due time (a retry, a lease's end) ends it sooner: the pause only bounds how late an
   * announcement missed while Redis was away is caught up.
   */
  idleMs?: number;
}

export interface RunningWebhookWorker {
  /** Stops claiming, lets the claims in hand finish and settle. */
  close(): Promise<void>;
}

/** A delivered event's lag runs from its stream entry, whose id is its time on the injected clock. */
function countDelivered(rt: Runtime, entryId: string): void {
  countWebhookAttempt('delivered');
  observeWebhookLag(rt.clock.now() - Number(entryId.slice(0, entryId.indexOf('-'))));
}

/**
 * Delivers what the space has, within the claim's time budget. Returns when the space is due again:
 * a retry time, now (budget spent, or the webhook replaced meanwhile), or null when nothing waits.
 */
async function deliverSpace(rt: Runtime, client: WebhookClient, spaceId: string): Promise<number | null> {
  const { webhookLeaseMs, webhookTimeoutMs, webhookRetryScheduleMs, masterKey } = rt.config;
  const budgetEnds = performance.now() + webhookLeaseMs - 2 * webhookTimeoutMs;
  for (;;) {
    const hook = await readWebhook(rt, spaceId);
    if (!hook) return null;
    const nextAt = Number(hook.next_at);
    if (nextAt > rt.clock.now()) return nextAt;
    const entries = await readUndelivered(rt, spaceId, BATCH);
    if (!entries.length) return null;
    // Trimmed entries (no fields) stay empty; the others get their message's fields back.
    const envelopes = await completeEnvelopes(rt, spaceId, entries);
    const url = new URL(hook.url);
    const target = await client.target(url);
    const signer = signingKey(open(masterKey!, hook.secret, webhookContext(spaceId)));
    let attempts = Number(hook.attempts);
    const delivered: string[] = [];
    const acks: Promise<unknown>[] = [];
    const flush = () => {
      if (delivered.length) acks.push(acknowledgeDelivered(rt, spaceId, delivered.splice(0)));
    };
    try {
      for (const [at, [entryId]] of entries.entries()) {
        // Trimmed while it waited (30 days): nothing left to send.
        const envelope = envelopes[at];
        if (!envelope) {
          delivered.push(entryId);
          continue;
        }
        const body = JSON.stringify(envelope);
        const evtId = envelope.id;
        const result =
          'failure' in target
            ? target.failure
            : await client.post(
                url,
                target.address,
                signedHeaders(signer, evtId, Math.floor(rt.clock.now() / 1000), body),
                body,
              );
        if (result.ok) countDelivered(rt, entryId);
        if (result.ok && attempts === 0) {
          delivered.push(entryId);
          if (delivered.length >= ACK_EVERY) flush();
        } else if (result.ok) {
          if (!(await recordAttempt(rt, spaceId, hook, entryId, { kind: 'delivered' }))) return rt.clock.now();
          attempts = 0;
        } else if (++attempts > webhookRetryScheduleMs.length) {
          countWebhookAttempt('gave_up');
          rt.log.warn('webhook delivery given up', {
            space_id: spaceId,
            event_id: evtId,
            attempts,
            status: result.status,
            detail: result.detail,
          });
          if (
            !(await recordAttempt(rt, spaceId, hook, entryId, {
              kind: 'gave_up',
              attempts,
              error: result.error!,
              envelope: body,
            }))
          )
            return rt.clock.now();
          attempts = 0;
        } else {
          countWebhookAttempt('retry');
          rt.log.info('webhook attempt failed', {
            space_id: spaceId,
            event_id: evtId,
            attempts,
            status: result.status,
            detail: result.detail,
          });
          const retryAt = rt.clock.now() + webhookRetryScheduleMs[attempts - 1]!;
          const current = await recordAttempt(rt, spaceId, hook, entryId, {
            kind: 'retry',
            attempts,
            nextAt: retryAt,
            error: result.error!,
          });
          return current ? retryAt : rt.clock.now();
        }
        if (performance.now() > budgetEnds) return rt.clock.now();
      }
    } finally {
      flush();
      await Promise.all(acks);
    }
  }
}

/**
 * Starts a worker loop in this process (the `worker` role of `mailbox serve`). It needs the master key
 * to open the secrets: set_webhook cannot declare without one either.
 */
export function startWebhookWorker(rt: Runtime, options: WebhookWorkerOptions = {}): RunningWebhookWorker {
  const concurrency = options.concurrency ?? 64;
  const idleMs = options.idleMs ?? IDLE_MS;
  const client = new WebhookClient(rt.config);
  const active = new Set<Promise<void>>();
  let running = true;
  let nextSweep = 0;
  let sweeping: Promise<void> = Promise.resolve();
  let wakeIdle: (() => void) | null = null;
  /** An announcement came since the loop's last look: it looks again at once. */
  let announced = false;
  const announcements = duplicateConnection(rt.redis, BLOCKING_OPTIONS);
  announcements.on('error', () => undefined); // the runtime's connection reports the outage
  announcements.on('message', () => {
    announced = true;
    wakeIdle?.();
  });
  void announcements.subscribe(globalKeys.webhookWakes(rt.config.webhookIndex)).catch(() => undefined);
  // Claims fail while Redis (or a node of the Cluster) is away: a warning once per outage, and only when
  // some space has a webhook (without one there is nothing to deliver late; the runtime logs the outage).
  let declared = false;
  let failing = false;
  const claimFailed = (message: string, error: Error): void => {
    if (!failing && declared) rt.log.warn(message, { error: error.message });
    else rt.log.debug(message, { error: error.message });
    failing = true;
  };

  const run = (spaceId: string, token: string) => {
    const task = (async () => {
      let next: number | null = rt.clock.now() + ERROR_PAUSE_MS;
      try {
        next = await deliverSpace(rt, client, spaceId);
      } catch (error) {
        rt.log.error('webhook delivery failed', { space_id: spaceId, error: String((error as Error)?.stack ?? error) });
      }
      try {
        await settleSpace(rt, spaceId, token, next);
      } catch (error) {
        // The lease ends by itself: another claim takes the space.
        rt.log.warn('webhook claim not settled', { space_id: spaceId, error: (error as Error).message });
      }
    })().finally(() => {
      active.delete(task);
      wakeIdle?.();
    });
    active.add(task);
  };

  const loop = (async () => {
    let shard = 0;
    while (running) {
      let claimed = 0;
      let nextDue = Infinity;
      announced = false;
      try {
        // Beside the claims, not before them: a sweep reads up to a thousand spaces.
        if (performance.now() >= nextSweep) {
          nextSweep = performance.now() + SWEEP_EVERY_MS;
          sweeping = webhooksDeclared(rt)
            .then(async (any) => {
              declared = any;
              if (any) await sweepWebhooks(rt);
            })
            .catch((error: Error) => claimFailed('webhook sweep failed', error));
        }
        for (let i = 0; i < WEBHOOK_SHARDS && running && active.size < concurrency; i++) {
          shard = (shard + 1) % WEBHOOK_SHARDS;
          const { spaces, token, next } = await claimSpaces(rt, shard, concurrency - active.size);
          for (const spaceId of spaces) run(spaceId, token);
          claimed += spaces.length;
          if (next !== null) nextDue = Math.min(nextDue, next);
        }
        if (failing && declared) rt.log.info('webhook claims resumed');
        failing = false;
      } catch (error) {
        claimFailed('webhook claim failed', error as Error);
      }
      if (!running) break;
      // Nothing due, or every slot busy: wait for a slot to free, an announcement, the next due time or
      // the idle pause, whichever first.
      if ((claimed === 0 && !announced) || active.size >= concurrency) {
        const pause = Math.min(idleMs, Math.max(0, nextDue - rt.clock.now()));
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, pause);
          wakeIdle = () => {
            if (active.size < concurrency) {
              clearTimeout(timer);
              resolve();
            }
          };
        });
        wakeIdle = null;
      }
    }
  })();

  return {
    async close() {
      running = false;
      wakeIdle?.();
      await loop;
      await Promise.all([...active, sweeping]);
      client.close();
      announcements.disconnect();
    },
  };
}
