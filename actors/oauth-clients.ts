/**
 * OAuth clients (assistant connectors), service-wide, never in a space. Two kinds: a client that
 * registered itself (RFC 7591, client_id `mcl_...`) and a Client ID Metadata Document (an https
 * client_id), fetched by the front end and kept an hour under its own tag (globalKeys.oauthClient,
 * named by the sha256 of its client_id). Public clients only: no secret.
 *
 * Registration is open to anyone, so what it may fill is bounded: a registered client that never got a
 * token is pending, a compact record in one hash under the anonymous index (globalKeys.pendingClients),
 * at most OAUTH_PENDING_CLIENTS of them, the oldest dropped first past the cap, and none past a day.
 * Its first token moves it under its own tag, kept 30 days past its last token.
 */
import { randomBase62 } from '../src/ids.js';
import { globalKeys } from '../src/redis/keys.js';
import type { Runtime } from '../src/runtime.js';
import { sha256Hex } from '../src/secrets.js';
import * as clientLua from './bindings/client.generated.js';

export interface OAuthClient {
  client_id: string;
  client_name: string;
  redirect_uris: string[];
  /** `registered` (RFC 7591) or `document` (fetched from its https client_id). */
  source: 'registered' | 'document';
  /** When it registered (s), for RFC 7591's answer. */
  client_id_issued_at: number;
}

export const CLIENT_RULES = {
  unusedMs: 24 * 3600_000,
  registeredMs: 30 * 24 * 3600_000,
  documentMs: 3600_000,
} as const;

const REGISTERED = /^mcl_[0-9A-Za-z]{24}$/;

const keyOf = (clientId: string): string => globalKeys.oauthClient(sha256Hex(clientId));

/** What is stored of a client: `[issued_at, name, redirect URIs]`; its id names it and tells its kind. */
export const clientRecord = (client: OAuthClient): string =>
  JSON.stringify([client.client_id_issued_at, client.client_name, client.redirect_uris]);

function clientOf(clientId: string, stored: string): OAuthClient {
  const [issuedAt, name, uris] = JSON.parse(stored) as [number, string, string[]];
  return {
    client_id: clientId,
    client_name: name,
    redirect_uris: uris,
    source: REGISTERED.test(clientId) ? 'registered' : 'document',
    client_id_issued_at: issuedAt,
  };
}

export async function registerClient(
  rt: Runtime,
  metadata: { client_name: string; redirect_uris: string[] },
): Promise<OAuthClient> {
  const now = rt.clock.now();
  const client: OAuthClient = {
    client_id: `mcl_${randomBase62(24)}`,
    client_name: metadata.client_name,
    redirect_uris: metadata.redirect_uris,
    source: 'registered',
    client_id_issued_at: Math.floor(now / 1000),
  };
  const { index, pendingClients } = rt.config.anonymous;
  await clientLua.registerClient(
    rt.scripts,
    { pending: globalKeys.pendingClients(index), times: globalKeys.pendingClientTimes(index) },
    {
      now,
      clientId: client.client_id,
      record: clientRecord(client),
      maxPending: pendingClients,
      pendingLife: CLIENT_RULES.unusedMs,
    },
  );
  return client;
}

/** Keeps a fetched Client ID Metadata Document for an hour: the next steps of the flow need not fetch it again. */
export async function keepClientDocument(rt: Runtime, client: OAuthClient): Promise<void> {
  await rt.redis.set(keyOf(client.client_id), clientRecord(client), 'PX', CLIENT_RULES.documentMs);
}

/** The client behind a client_id: in use (or a document), else pending and younger than a day; or null. */
export async function storedClient(rt: Runtime, clientId: string): Promise<OAuthClient | null> {
  const inUse = await rt.redis.get(keyOf(clientId));
  if (inUse) return clientOf(clientId, inUse);
  if (!REGISTERED.test(clientId)) return null;
  const pending = await rt.redis.hget(globalKeys.pendingClients(rt.config.anonymous.index), clientId);
  const client = pending ? clientOf(clientId, pending) : null;
  return client && rt.clock.now() < client.client_id_issued_at * 1000 + CLIENT_RULES.unusedMs ? client : null;
}

/**
 * A registered client in use is kept 30 days more; at its first token it leaves the pending ones (a
 * document is fetched again when its hour is up).
 */
export async function keepClientInUse(rt: Runtime, client: OAuthClient): Promise<void> {
  if (client.source !== 'registered') return;
  const key = keyOf(client.client_id);
  if (await rt.redis.pexpire(key, CLIENT_RULES.registeredMs)) return;
  await rt.redis.set(key, clientRecord(client), 'PX', CLIENT_RULES.registeredMs);
  const { index } = rt.config.anonymous;
  await rt.redis
    .multi()
    .hdel(globalKeys.pendingClients(index), client.client_id)
    .zrem(globalKeys.pendingClientTimes(index), client.client_id)
    .exec();
}
