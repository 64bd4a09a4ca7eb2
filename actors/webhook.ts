/**
 * The Webhook actor: the space's one declared https address, its secret (sealed under the master key)
 * and the delivery state of its oldest undelivered event. Declaring is lua/webhook/declareWebhook;
 * each delivery attempt's outcome is lua/webhook/recordAttempt. The deliveries themselves run in the
 * webhook workers (src/webhooks/worker.ts), which read the space's stream through its consumer group.
 */
import type { Runtime } from '../src/runtime.js';
import { spaceKeys } from '../src/redis/keys.js';
import { iso } from '../src/clock.js';
import { requireMasterKey, seal } from '../src/crypto.js';
import { MailboxError } from '../src/errors.js';
import { newWebhookSecret } from '../src/secrets.js';
import { reasonText } from '../src/texts.js';
import { eventIdOf, prepareEvent, WEBHOOK_TEST, type Envelope } from './events.js';
import * as webhookLua from './bindings/webhook.generated.js';
import { lineArgs, prepareLine, SERVICE_ACTOR, type JournalRefs } from './journal.js';
import { actorOf, type Access } from './space.js';
import { registerSpace, WEBHOOK_GROUP, wakeSpace } from './webhook-index.js';

/** docs/contract.md, Decision 5: at least 60 s between two declarations. */
const DECLARATION_GAP_MS = 60_000;

/** The webhook hash, as stored (strings). */
export interface StoredWebhook {
  url: string;
  /** Sealed (src/crypto.ts) under webhookContext. */
  secret: string;
  declared_at: string;
  /** Failed attempts of the oldest undelivered event. */
  attempts: string;
  /** When it is tried again (ms); '0' when not waiting. */
  next_at: string;
  last_error: string;
}

/** The context the secret is sealed under: it opens for this space's webhook only. */
export const webhookContext = (spaceId: string): string => `webhook:${spaceId}`;

export async function readWebhook(rt: Runtime, spaceId: string): Promise<StoredWebhook | null> {
  const fields = await rt.redis.hgetall(spaceKeys(spaceId).webhook);
  return fields.url ? (fields as unknown as StoredWebhook) : null;
}

/** Where the space's webhook stands (get_settings): never its secret. */
export interface WebhookState {
  url: string;
  declared_at: string;
  failed_attempts: number;
  next_attempt_at: string | null;
  last_error: string | null;
}

export async function webhookState(rt: Runtime, spaceId: string): Promise<WebhookState | null> {
  const webhook = await readWebhook(rt, spaceId);
  if (!webhook) return null;
  const attempts = Number(webhook.attempts || 0);
  return {
    url: webhook.url,
    declared_at: iso(Number(webhook.declared_at)),
    failed_attempts: attempts,
    next_attempt_at: attempts && Number(webhook.next_at) ? iso(Number(webhook.next_at)) : null,
    last_error: webhook.last_error ? reasonText(webhook.last_error) : null,
  };
}

/**
 * Declares (or replaces) the space's webhook. Returns the secret, to be shown this once. The space
 * joins the sweeper's index first, so a webhook never exists outside it.
 */
export async function declareWebhook(
  rt: Runtime,
  access: Access,
  url: string,
): Promise<{ secret: string; replaced: boolean }> {
  const spaceId = access.space.id;
  const masterKey = requireMasterKey(rt.config);
  const secret = newWebhookSecret();
  const keys = spaceKeys(spaceId);
  const line = prepareLine(rt, 'webhook.declared', actorOf(access), {}, { url });
  const event = prepareEvent(
    rt,
    spaceId,
    WEBHOOK_TEST,
    {},
    {
      url,
      message: 'Webhook déclaré : les événements de cet espace arriveront ici, signés avec le secret reçu.',
    },
  );
  await registerSpace(rt, spaceId);
  let reply: webhookLua.DeclareWebhookReply;
  try {
    reply = await webhookLua.declareWebhook(
      rt.scripts,
      {
        space: keys.space,
        webhook: keys.webhook,
        webhookDeclarations: keys.webhookDeclarations,
        events: keys.events,
        journal: keys.journal,
        journalIndex: keys.journalIndex,
      },
      {
        url,
        secret: seal(masterKey, secret, webhookContext(spaceId)),
        now: rt.clock.now(),
        gap: DECLARATION_GAP_MS,
        perDay: rt.config.limits.webhooks_declared_per_24h,
        group: WEBHOOK_GROUP,
        ...lineArgs(line),
        event,
      },
    );
  } catch (error) {
    if (error instanceof MailboxError && error.code === 'space_rate_limited') {
      throw new MailboxError('space_rate_limited', error.hint, { reason: 'déclarations de webhook' });
    }
    throw error;
  }
  // A replacement clears the old address's retry wait: what it had not received goes to the new one now.
  if (reply.replaced) await wakeSpace(rt, spaceId, 'now');
  return { secret, replaced: reply.replaced };
}

/** Every claim reads the group as this one consumer: one claim per space at a time keeps it alone. */
const CONSUMER = 'delivery';

export type StreamEntry = [id: string, fields: string[] | null];

/** At most `count` entries to deliver: this consumer's pending ones first (a retry, or what a dead worker left), then new ones. */
export async function readUndelivered(rt: Runtime, spaceId: string, count: number): Promise<StreamEntry[]> {
  const key = spaceKeys(spaceId).events;
  for (const from of ['0', '>']) {
    const reply = await rt.redis.xreadgroup('GROUP', WEBHOOK_GROUP, CONSUMER, 'COUNT', count, 'STREAMS', key, from);
    const entries = reply?.[0]?.[1] ?? [];
    if (entries.length) return entries;
  }
  return [];
}

/** Delivered (or trimmed) entries leave the group's pending list, in one XACK. */
export const acknowledgeDelivered = (rt: Runtime, spaceId: string, entryIds: string[]): Promise<number> =>
  rt.redis.xack(spaceKeys(spaceId).events, WEBHOOK_GROUP, ...entryIds);

export type Outcome =
  | { kind: 'delivered' }
  | { kind: 'retry'; attempts: number; nextAt: number; error: string }
  | { kind: 'gave_up'; attempts: number; error: string; envelope: string };

/** Journal refs of the event a give-up tells about: its inbox, thread, message, campaign. */
function refsOf(envelope: string): JournalRefs {
  const refs = (JSON.parse(envelope) as Envelope).subject.refs;
  const picked: JournalRefs = {};
  for (const name of ['inbox_id', 'thread_id', 'message_id', 'campaign_id'] as const)
    if (refs[name]) picked[name] = refs[name];
  return picked;
}

/**
 * Records one attempt at the space's oldest undelivered event (stream entry `entryId`). False when the
 * webhook was replaced since `hook` was read: the caller stops and lets the next claim start afresh.
 */
export async function recordAttempt(
  rt: Runtime,
  spaceId: string,
  hook: StoredWebhook,
  entryId: string,
  outcome: Outcome,
): Promise<boolean> {
  const keys = spaceKeys(spaceId);
  let line = { lineId: '', lineJson: '', lineRefs: '' };
  if (outcome.kind === 'gave_up') {
    const { type } = JSON.parse(outcome.envelope) as Envelope;
    line = lineArgs(
      prepareLine(rt, 'webhook.gave_up', SERVICE_ACTOR, refsOf(outcome.envelope), {
        event_id: eventIdOf(outcome.envelope),
        type,
        url: hook.url,
        attempts: outcome.attempts,
        error: outcome.error,
      }),
    );
  }
  const reply = await webhookLua.recordAttempt(
    rt.scripts,
    { events: keys.events, webhook: keys.webhook, journal: keys.journal, journalIndex: keys.journalIndex },
    {
      group: WEBHOOK_GROUP,
      entryId,
      outcome: outcome.kind,
      declaredAt: hook.declared_at,
      attempts: outcome.kind === 'retry' ? outcome.attempts : 0,
      nextAt: outcome.kind === 'retry' ? outcome.nextAt : 0,
      lastError: outcome.kind === 'delivered' ? '' : outcome.error,
      ...line,
    },
  );
  return reply.current;
}
