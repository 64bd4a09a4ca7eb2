/**
 * Connections (docs/contract.md, Decision 13): an assistant the space's human allowed on the consent page becomes an
 * access of kind `connection`; its OAuth authorization code, access tokens and refresh tokens live
 * under the space's tag, each named by the sha256 of the secret, each expiring. The secrets carry the
 * space like keys do (`mbc_`, `mbt_`, `mbr_` + space-prefix), so every step is one slot. Every token
 * is checked against the active accesses when used: revoking the connection (revoke_key, or the
 * client revoking its refresh token) ends all of them at once.
 */
import { iso } from '../src/clock.js';
import { MailboxError } from '../src/errors.js';
import { idBody, randomBase62 } from '../src/ids.js';
import type { Permission } from '../src/record-schemas.js';
import { spaceKeys } from '../src/redis/keys.js';
import type { Runtime } from '../src/runtime.js';
import { keySecret, sha256Hex, spaceOfSecret, type SecretKind } from '../src/secrets.js';
import * as spaceLua from './bindings/space.generated.js';
import { lineArgs, prepareLine, type Actor } from './journal.js';
import { accessTokenOwner, normaliseKeyName, revokeAccess, type StoredKey } from './space.js';

export const CONNECTION_RULES = {
  codeMs: 5 * 60_000,
  accessTokenMs: 3600_000,
  refreshTokenMs: 30 * 24 * 3600_000,
} as const;

/** What an authorization code hands over, stored under the code's hash. */
export interface CodeGrant {
  key_id: string;
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  scope: Permission[];
  resource: string;
  expires_at: number;
}

export interface RefreshGrant {
  key_id: string;
  client_id: string;
  scope: Permission[];
  resource: string;
  expires_at: number;
}

/** Who a connection is for: its client, what the human chose, and the redirect the code goes back to. */
export interface ConnectionRequest {
  clientId: string;
  clientName: string;
  redirectUri: string;
  codeChallenge: string;
  resource: string;
  permissions: Permission[];
  inboxIds: string[] | null;
}

/** Where a redirect URI returns to, as the human reads it: the host, or for an app's own scheme the scheme too (`cursor://oauth`). */
export function redirectHost(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.protocol === 'https:' || url.protocol === 'http:' ? url.host : `${url.protocol}//${url.host}`;
}

export const newSecret = (spaceId: string, kind: SecretKind): string => keySecret(spaceId, randomBase62(32), kind);

/**
 * An access token: a secret like the others, followed by its connection's key id body (read back by
 * `accessTokenOwner`), so that every token of a connection spends one request budget.
 */
export const newAccessToken = (spaceId: string, keyId: string): string =>
  `${newSecret(spaceId, 'mbt')}_${idBody(keyId)}`;

/**
 * The human allowed the client: the connection and its authorization code, in one step. Returns the
 * connection's name (the client's, made unique). Refusals: not_found {inbox_id}, key_limit.
 */
export async function createConnection(
  rt: Runtime,
  spaceId: string,
  human: Actor,
  code: string,
  request: ConnectionRequest,
): Promise<{ keyId: string; name: string }> {
  const keys = spaceKeys(spaceId);
  const now = rt.clock.now();
  const key: StoredKey = {
    id: rt.ids.next('key'),
    kind: 'connection',
    name: request.clientName,
    name_norm: normaliseKeyName(request.clientName),
    permissions: request.permissions,
    inbox_ids: request.inboxIds,
    daily_cap: null,
    created_at: iso(now),
    created_by: null,
    prefix: keySecret(spaceId, '', 'mbt').slice(0, 12),
    token_hash: '',
    client_id: request.clientId,
    redirect_host: redirectHost(request.redirectUri),
  };
  const grant: CodeGrant = {
    key_id: key.id,
    client_id: request.clientId,
    redirect_uri: request.redirectUri,
    code_challenge: request.codeChallenge,
    scope: request.permissions,
    resource: request.resource,
    expires_at: now + CONNECTION_RULES.codeMs,
  };
  const line = prepareLine(
    rt,
    'connection.created',
    human,
    {},
    {
      key_id: key.id,
      client_id: request.clientId,
      redirect_host: key.redirect_host,
      permissions: key.permissions,
      inbox_ids: key.inbox_ids,
    },
  );
  const reply = await spaceLua.createConnection(
    rt.scripts,
    {
      space: keys.space,
      keys: keys.keys,
      inboxes: keys.inboxes,
      code: keys.oauthCode(sha256Hex(code)),
      journal: keys.journal,
      journalIndex: keys.journalIndex,
    },
    {
      keyId: key.id,
      key: JSON.stringify(key),
      grant: JSON.stringify(grant),
      codeLife: CONNECTION_RULES.codeMs,
      maxConnections: rt.config.limits.active_keys,
      inboxIds: JSON.stringify(key.inbox_ids ?? []),
      ...lineArgs(line),
    },
  );
  return { keyId: key.id, name: reply.name };
}

/** An authorization code's grant and space, or null: unknown, spent, or expired. */
export async function readCode(rt: Runtime, code: string): Promise<(CodeGrant & { spaceId: string }) | null> {
  const spaceId = spaceOfSecret(code, 'mbc');
  if (!spaceId) return null;
  const json = await rt.redis.get(spaceKeys(spaceId).oauthCode(sha256Hex(code)));
  const grant = json ? (JSON.parse(json) as CodeGrant) : null;
  return grant && rt.clock.now() < grant.expires_at ? { ...grant, spaceId } : null;
}

/** Spends a code: true for the one caller that spent it (a code works once). */
export async function spendCode(rt: Runtime, code: string): Promise<boolean> {
  const spaceId = spaceOfSecret(code, 'mbc');
  return spaceId !== null && (await rt.redis.del(spaceKeys(spaceId).oauthCode(sha256Hex(code)))) === 1;
}

/**
 * Stores a new token pair for the connection; `unauthorized` when it was revoked meanwhile. The access
 * token keeps the grant's scope: what it can do (a refresh may narrow the connection's permissions).
 * A refresh passes the token it `rotates`: spent in the same step as the new pair is stored, so a refresh
 * refused before this (a wider scope) leaves it usable. `rotated: false` when it was not spent, with
 * `reused` when it had been already (the caller revokes the connection).
 */
export async function issueTokens(
  rt: Runtime,
  spaceId: string,
  accessToken: string,
  refreshToken: string,
  grant: Omit<RefreshGrant, 'expires_at'>,
  rotates: string | null = null,
): Promise<{ rotated: boolean; reused: boolean }> {
  const keys = spaceKeys(spaceId);
  const now = rt.clock.now();
  const refresh = {
    key_id: grant.key_id,
    client_id: grant.client_id,
    scope: grant.scope.join(' '),
    resource: grant.resource,
    expires_at: String(now + CONNECTION_RULES.refreshTokenMs),
  };
  const pair = {
    keys: keys.keys,
    access: keys.oauthAccess(sha256Hex(accessToken)),
    refresh: keys.oauthRefresh(sha256Hex(refreshToken)),
  };
  const args = {
    keyId: grant.key_id,
    audience: grant.resource,
    accessLife: CONNECTION_RULES.accessTokenMs,
    refresh: JSON.stringify(refresh),
    refreshLife: CONNECTION_RULES.refreshTokenMs,
    now,
    scope: grant.scope.join(','),
  };
  if (!rotates) {
    await spaceLua.issueTokens(rt.scripts, pair, args);
    return { rotated: false, reused: false };
  }
  const reply = await spaceLua.rotateTokens(
    rt.scripts,
    { ...pair, spent: keys.oauthRefresh(sha256Hex(rotates)) },
    args,
  );
  return { rotated: reply.ok, reused: !reply.ok && reply.reused };
}

export interface StoredRefresh extends RefreshGrant {
  spaceId: string;
  used: boolean;
}

/** A refresh token as stored (used or not), or null: unknown or expired. */
export async function readRefresh(rt: Runtime, refreshToken: string): Promise<StoredRefresh | null> {
  const spaceId = spaceOfSecret(refreshToken, 'mbr');
  if (!spaceId) return null;
  const stored = await rt.redis.hgetall(spaceKeys(spaceId).oauthRefresh(sha256Hex(refreshToken)));
  if (!stored.key_id || rt.clock.now() >= Number(stored.expires_at)) return null;
  return {
    spaceId,
    key_id: stored.key_id,
    client_id: stored.client_id!,
    scope: (stored.scope ?? '').split(' ').filter(Boolean) as Permission[],
    resource: stored.resource ?? '',
    expires_at: Number(stored.expires_at),
    used: stored.used === '1',
  };
}

/** Ends one access token (RFC 7009 on an access token); unknown tokens are ignored. */
export async function dropAccessToken(rt: Runtime, accessToken: string): Promise<void> {
  const owner = accessTokenOwner(accessToken);
  if (owner) await rt.redis.del(spaceKeys(owner.spaceId).oauthAccess(sha256Hex(accessToken)));
}

/**
 * Revokes a connection from outside any access: its client disconnecting (RFC 7009 on its refresh
 * token) or a reused refresh token. `actor` is journaled; a connection already gone is no error.
 */
export async function endConnection(
  rt: Runtime,
  spaceId: string,
  keyId: string,
  actor: (name: string) => Actor,
): Promise<void> {
  const keys = spaceKeys(spaceId);
  const json = await rt.redis.hget(keys.keys, keyId);
  if (!json) return;
  const stored = JSON.parse(json) as StoredKey;
  if (stored.kind !== 'connection') throw new MailboxError('not_found');
  await revokeAccess(rt, spaceId, keyId, '', actor(stored.name)).catch((error: unknown) => {
    // Revoked meanwhile, by another path: what was asked holds.
    if (!(error instanceof MailboxError && error.code === 'not_found')) throw error;
  });
}
