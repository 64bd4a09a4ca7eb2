/**
 * The Space actor: the space's fields and its accesses (keys and assistant connections). State lives
 * in Redis under the space's hash tag; each behaviour is one script of lua/space/.
 */
import { indexSpace } from './history-index.js';
import type { Runtime } from '../src/runtime.js';
import { spaceKeys } from '../src/redis/keys.js';
import { iso } from '../src/clock.js';
import { ID_BODY_PATTERN, ID_PREFIXES, randomBase62 } from '../src/ids.js';
import { keyPrefix, keySecret, sha256Hex, spaceOfSecret } from '../src/secrets.js';
import { MailboxError } from '../src/errors.js';
import * as spaceLua from './bindings/space.generated.js';
import {
  appendLine,
  humanActor,
  lineArgs,
  prepareLine,
  SERVICE_ACTOR,
  type Actor,
  type PreparedLine,
} from './journal.js';
import { indexHuman } from './human-index.js';
import { PERMISSIONS, type KeyView, type Permission } from '../src/record-schemas.js';
import type { StoredKey } from './bindings/shapes.js';

export type { StoredKey };

export const DEFAULT_PERMISSIONS: Permission[] = ['send', 'read'];

export interface SpaceState {
  id: string;
  name: string;
  human_email: string | null;
  verified: boolean;
  plan: string;
  managed: boolean;
  approval_required: boolean;
  created_at: string;
}

/** The key's request budget after this request (the token bucket of lua/space/authenticate). */
export interface RateState {
  /** Whole requests left in the burst. */
  remaining: number;
  /** Seconds until the bucket is full again. */
  fullInSeconds: number;
}

/** Who is calling: the access, its space, how the journal names it, and what is left of its budget. */
export interface Access {
  key: StoredKey;
  space: SpaceState;
  lastUsedAt: number | null;
  rate: RateState;
  /** The human's address when a signed-in human acts (actors/human-session.ts humanAccess), not a key. */
  human?: string;
}

export const actorOf = (access: Access): Actor =>
  access.human ? humanActor(access.human) : { kind: 'agent', name: access.key.name, key_id: access.key.id };

export const normaliseKeyName = (name: string): string => name.trim().normalize('NFC').toLocaleLowerCase('fr');

function keyView(key: StoredKey, lastUsedMs: number | null): KeyView {
  return {
    id: key.id,
    kind: key.kind,
    name: key.name,
    permissions: key.permissions,
    inbox_ids: key.inbox_ids,
    daily_cap: key.daily_cap,
    created_at: key.created_at,
    last_used_at: lastUsedMs ? iso(lastUsedMs) : null,
    created_by: key.created_by,
    prefix: key.prefix,
    ...(key.kind === 'connection' ? { client_id: key.client_id, redirect_host: key.redirect_host } : {}),
  };
}

export function readSpace(fields: Record<string, string>): SpaceState {
  return {
    id: fields.id!,
    name: fields.name ?? '',
    human_email: fields.human_email || null,
    verified: fields.verified === '1',
    plan: fields.plan || 'none',
    managed: fields.managed === '1',
    approval_required: fields.approval_required === '1',
    created_at: fields.created_at!,
  };
}

interface NewKey {
  key: StoredKey;
  secret: string;
}

function mintKey(
  rt: Runtime,
  spaceId: string,
  spec: Omit<StoredKey, 'id' | 'name_norm' | 'created_at' | 'prefix' | 'token_hash'>,
): NewKey {
  const secret = keySecret(spaceId, randomBase62(32));
  const key: StoredKey = {
    ...spec,
    id: rt.ids.next('key'),
    name_norm: normaliseKeyName(spec.name),
    created_at: iso(rt.clock.now()),
    prefix: keyPrefix(spaceId),
    token_hash: sha256Hex(secret),
  };
  return { key, secret };
}

export interface CreateSpaceOptions {
  human: string;
  name?: string;
  plan?: string;
  verified?: boolean;
  managed?: boolean;
}

/** The operator's way in (docs/contract.md, Decision 2): a space and a first key holding all four permissions. */
export async function createSpace(
  rt: Runtime,
  options: CreateSpaceOptions,
): Promise<{ space_id: string; api_key: string; key_id: string }> {
  const spaceId = rt.ids.next('space');
  const keys = spaceKeys(spaceId);
  const human = options.human.trim().toLowerCase();
  const fields = {
    id: spaceId,
    name: options.name ?? human,
    human_email: human,
    verified: options.verified ? '1' : '0',
    plan: options.plan ?? 'none',
    managed: options.managed ? '1' : '0',
    approval_required: '0',
    created_at: iso(rt.clock.now()),
  };
  const { key, secret } = mintKey(rt, spaceId, {
    kind: 'key',
    name: 'admin',
    permissions: [...PERMISSIONS],
    inbox_ids: null,
    daily_cap: null,
    created_by: null,
  });
  const line = prepareLine(rt, 'space.created', SERVICE_ACTOR, {}, { key_id: key.id, plan: fields.plan });
  await indexHuman(rt, human, spaceId);
  // Before the space's script, as its human: a space in the index that never got written leaves it at its first visit.
  await indexSpace(rt, spaceId);
  await spaceLua.createSpace(
    rt.scripts,
    {
      space: keys.space,
      keys: keys.keys,
      keyNames: keys.keyNames,
      auth: keys.auth,
      journal: keys.journal,
      journalIndex: keys.journalIndex,
    },
    {
      fields: JSON.stringify(fields),
      keyId: key.id,
      key: JSON.stringify(key),
      nameNorm: key.name_norm,
      tokenHash: key.token_hash,
      ...lineArgs(line),
    },
  );
  return { space_id: spaceId, api_key: secret, key_id: key.id };
}

/** A last-use mark younger than this is not rewritten: one write a minute per key, not one per call. */
const LAST_USE_RESOLUTION_MS = 60_000;

/**
 * The access of a key that is not presenting itself: the one that started a campaign, for the feeder
 * that writes under its rights and caps. Null when the key was revoked since.
 */
export async function accessOfKey(rt: Runtime, spaceId: string, keyId: string): Promise<Access | null> {
  const keys = spaceKeys(spaceId);
  const [space, key] = await Promise.all([rt.redis.hgetall(keys.space), rt.redis.hget(keys.keys, keyId)]);
  if (!space.id || !key) return null;
  return {
    key: JSON.parse(key) as StoredKey,
    space: readSpace(space),
    lastUsedAt: null,
    rate: { remaining: 0, fullInSeconds: 0 },
  };
}

const TOKEN_CONNECTION = new RegExp(`_(${ID_BODY_PATTERN})$`);

/**
 * The space and connection an OAuth access token names, or null when it is not shaped like one. A token
 * is `mbt_<space-prefix>_<32 base62>_<its connection's key id body>` (actors/connection.ts mints it):
 * the key id in clear names the connection's request budget before the script runs, every key reaching
 * it through KEYS.
 */
export function accessTokenOwner(token: string): { spaceId: string; keyId: string } | null {
  const connection = TOKEN_CONNECTION.exec(token)?.[1];
  const spaceId = connection ? spaceOfSecret(token.slice(0, -connection.length - 1), 'mbt') : null;
  return spaceId ? { spaceId, keyId: `${ID_PREFIXES.key}_${connection}` } : null;
}

/**
 * The access behind a presented secret: an API key, or a connection's OAuth access token (`mbt_...`),
 * which is accepted only for the resource it was issued for (RFC 8707): `resource` is the URL of the
 * resource being called (`<BASE_URL>/mcp`), null where tokens are not accepted at all. A token's access
 * has the permissions of its scope (a refresh may narrow the connection's), and spends the connection's
 * request budget, whichever of its tokens is presented. `calls`: what the request costs, one unless it
 * is a JSON-RPC batch (at most the burst), taken whole or refused `rate_limited`.
 */
export async function authenticate(
  rt: Runtime,
  secret: string | null,
  resource: string | null = null,
  calls = 1,
): Promise<Access> {
  const token = secret ? accessTokenOwner(secret) : null;
  const spaceId = secret ? (spaceOfSecret(secret) ?? token?.spaceId) : null;
  if (!secret || !spaceId) throw new MailboxError('unauthorized');
  const keys = spaceKeys(spaceId);
  const tokenHash = sha256Hex(secret);
  const { burst, perSecond } = rt.config.rateLimit;
  const reply = await spaceLua.authenticate(
    rt.scripts,
    {
      auth: token ? keys.oauthAccess(tokenHash) : keys.auth,
      keys: keys.keys,
      keyUse: keys.keyUse,
      space: keys.space,
      rateBucket: keys.rateBucket(token ? token.keyId : tokenHash),
    },
    {
      secretHash: tokenHash,
      now: rt.clock.now(),
      freshFor: LAST_USE_RESOLUTION_MS,
      capacity: burst,
      refill: perSecond,
      kind: token ? 'token' : 'key',
      connectionKeyId: token?.keyId ?? '',
      cost: calls,
    },
  );
  if (token && reply.audience !== resource) {
    throw new MailboxError('unauthorized', null, {
      reason: "Ce jeton d'accès OAuth a été émis pour une autre ressource.",
    });
  }
  const rate = { remaining: Math.floor(reply.tokens), fullInSeconds: Math.ceil((burst - reply.tokens) / perSecond) };
  // What the tools check (src/tools/dispatch.ts): a token can do what its scope says, never more than its connection.
  const scope = reply.scope === null ? null : reply.scope.split(',');
  const key = scope
    ? { ...reply.key, permissions: reply.key.permissions.filter((permission) => scope.includes(permission)) }
    : reply.key;
  return { key, space: readSpace(reply.space), lastUsedAt: reply.last_used_at || null, rate };
}

export interface KeySpec {
  name: string;
  permissions: Permission[];
  inbox_ids: string[] | null;
  daily_cap: number | null;
}

export const createKey = (rt: Runtime, access: Access, spec: KeySpec): Promise<{ api_key: string; key: KeyView }> =>
  insertKey(rt, access.space.id, spec, access.key.id, actorOf(access));

/**
 * A key the operator gives a space (`mailbox serve --dev` when the dev space's key is lost), journaled
 * with the service as actor; `unauthorized` when the space is gone.
 */
export const createOperatorKey = (
  rt: Runtime,
  spaceId: string,
  spec: KeySpec,
): Promise<{ api_key: string; key: KeyView }> => insertKey(rt, spaceId, spec, null, SERVICE_ACTOR);

async function insertKey(
  rt: Runtime,
  spaceId: string,
  spec: KeySpec,
  createdBy: string | null,
  actor: Actor,
): Promise<{ api_key: string; key: KeyView }> {
  const keys = spaceKeys(spaceId);
  const { key, secret } = mintKey(rt, spaceId, { ...spec, kind: 'key', created_by: createdBy });
  const line = prepareLine(
    rt,
    'key.created',
    actor,
    {},
    {
      key_id: key.id,
      name: key.name,
      permissions: key.permissions,
      inbox_ids: key.inbox_ids,
      daily_cap: key.daily_cap,
    },
  );
  const limits = rt.config.limits;
  await spaceLua.createKey(
    rt.scripts,
    {
      space: keys.space,
      keys: keys.keys,
      keyNames: keys.keyNames,
      auth: keys.auth,
      keyCreations: keys.keyCreations,
      inboxes: keys.inboxes,
      journal: keys.journal,
      journalIndex: keys.journalIndex,
    },
    {
      keyId: key.id,
      key: JSON.stringify(key),
      nameNorm: key.name_norm,
      tokenHash: key.token_hash,
      now: rt.clock.now(),
      maxKeys: limits.active_keys,
      maxCreations: limits.keys_created_per_24h,
      inboxIds: JSON.stringify(key.inbox_ids ?? []),
      ...lineArgs(line),
    },
  );
  return { api_key: secret, key: keyView(key, null) };
}

export async function listKeys(rt: Runtime, spaceId: string): Promise<KeyView[]> {
  const keys = spaceKeys(spaceId);
  const [stored, used] = await Promise.all([rt.redis.hvals(keys.keys), rt.redis.hgetall(keys.keyUse)]);
  return stored
    .map((json) => JSON.parse(json) as StoredKey)
    .sort((a, b) => (a.id < b.id ? -1 : 1))
    .map((key) => keyView(key, used[key.id] ? Number(used[key.id]) : null));
}

/** The names of these accesses (ids repeated or empty allowed), by id: one read; a removed access is absent. */
export async function keyNames(rt: Runtime, spaceId: string, keyIds: string[]): Promise<Map<string, string>> {
  const ids = [...new Set(keyIds.filter((id) => id.startsWith(`${ID_PREFIXES.key}_`)))];
  const names = new Map<string, string>();
  if (!ids.length) return names;
  const stored = await rt.redis.hmget(spaceKeys(spaceId).keys, ...ids);
  ids.forEach((id, i) => {
    if (stored[i]) names.set(id, (JSON.parse(stored[i]) as StoredKey).name);
  });
  return names;
}

/** Which of these access ids still exist (not revoked, space not erased): what the realtime socket polls. */
export async function existingKeys(rt: Runtime, spaceId: string, keyIds: string[]): Promise<Set<string>> {
  const found = await rt.redis.hmget(spaceKeys(spaceId).keys, ...keyIds);
  return new Set(keyIds.filter((_, i) => found[i] !== null));
}

export const revokeKey = (
  rt: Runtime,
  access: Access,
  keyId: string,
): Promise<{ kind: 'key' | 'connection'; name: string }> =>
  revokeAccess(rt, access.space.id, keyId, access.key.id, actorOf(access));

/** Revokes an access of the space; `callerKeyId` ('' when no access asks) cannot revoke itself. */
export async function revokeAccess(
  rt: Runtime,
  spaceId: string,
  keyId: string,
  callerKeyId: string,
  actor: Actor,
): Promise<{ kind: 'key' | 'connection'; name: string }> {
  const keys = spaceKeys(spaceId);
  const line = prepareLine(rt, 'key.revoked', actor, {}, {});
  return spaceLua.revokeKey(
    rt.scripts,
    {
      keys: keys.keys,
      keyNames: keys.keyNames,
      auth: keys.auth,
      revokedKeys: keys.revokedKeys,
      keyUse: keys.keyUse,
      journal: keys.journal,
      journalIndex: keys.journalIndex,
    },
    { keyId, callerKeyId, ...lineArgs(line) },
  );
}

/**
 * The operator sets a plan by hand (`mailbox admin set-plan`): `none` ends it. Journaled with the
 * service as actor. `not_found` when the space does not exist.
 */
export async function setPlan(rt: Runtime, spaceId: string, plan: string): Promise<void> {
  const line = prepareLine(rt, 'plan.set', SERVICE_ACTOR, {}, { plan });
  await runSetPlan(
    rt,
    spaceId,
    { plan, billing: plan === 'none' ? 'none' : 'active', paidUntil: '', providerEventId: '', providerEventAt: '' },
    line,
  );
}

export type BillingStatus = 'active' | 'past_due' | 'cancelled';

/** What one subscription event of the payment provider says of a space's billing. */
export interface BillingChange {
  eventId: string;
  /** When Stripe created the event (ms): an older one than the last applied is stale. */
  eventMs: number;
  spaceId: string;
  /** `none` once the subscription ended. */
  plan: string;
  status: BillingStatus;
  /** The end of the paid period (ms), when Stripe gives one. */
  periodEnd: number | null;
}

/**
 * The payment provider reported a subscription's change (src/http/stripe-webhook.ts): false when
 * the event was stale or seen already. `not_found` when the space does not exist (erased).
 */
export async function applyBillingChange(rt: Runtime, change: BillingChange): Promise<boolean> {
  const line = prepareLine(
    rt,
    'billing.updated',
    SERVICE_ACTOR,
    {},
    { plan: change.plan, status: change.status, provider_event: change.eventId },
  );
  const args: PlanArgs = {
    plan: change.plan,
    billing: change.status,
    paidUntil: change.periodEnd ?? '',
    providerEventId: change.eventId,
    providerEventAt: change.eventMs,
  };
  return runSetPlan(rt, change.spaceId, args, line);
}

type PlanArgs = Omit<spaceLua.SetPlanArgs, 'lineId' | 'lineJson' | 'lineRefs'>;

async function runSetPlan(rt: Runtime, spaceId: string, args: PlanArgs, line: PreparedLine): Promise<boolean> {
  const keys = spaceKeys(spaceId);
  const reply = await spaceLua.setPlan(
    rt.scripts,
    { space: keys.space, journal: keys.journal, journalIndex: keys.journalIndex },
    { ...args, ...lineArgs(line) },
  );
  return reply.applied;
}

/** The billing fields of the space as the provider last set them, and how many inboxes it has. */
export async function readBilling(
  rt: Runtime,
  spaceId: string,
): Promise<{ status: string | null; periodEnd: string | null; inboxesUsed: number }> {
  const keys = spaceKeys(spaceId);
  const [[status, periodEnd], inboxesUsed] = await Promise.all([
    rt.redis.hmget(keys.space, 'billing_status', 'current_period_end'),
    rt.redis.zcard(keys.inboxes),
  ]);
  return { status: status ?? null, periodEnd: periodEnd ?? null, inboxesUsed };
}

/** How many messages a key sent on a Paris day (its daily cap's count, kept by message/createOutbound). */
export async function keySentOn(rt: Runtime, spaceId: string, keyId: string, day: string): Promise<number> {
  return Number((await rt.redis.hget(spaceKeys(spaceId).keySentOn(day), keyId)) ?? 0);
}

/** subscribe opened a Checkout Session at the provider: the journal says who asked, for which plan. */
export async function journalCheckout(rt: Runtime, access: Access, plan: string): Promise<void> {
  await appendLine(rt, access.space.id, prepareLine(rt, 'billing.checkout', actorOf(access), {}, { plan }));
}
