/**
 * OAuth clients (assistant connectors), service-wide: each under its own tag (globalKeys.oauthClient,
 * named by the sha256 of its client_id), never in a space. Two kinds: a client that registered itself
 * (RFC 7591, client_id `mcl_...`), kept a day until its first token, then 30 days past its last
 * one (registration is open to anyone: unused registrations go away on their own); and a Client ID Metadata Document
 * (an https client_id), fetched by the front end and kept an hour. Public clients only: no secret.
 */
import { randomBase62 } from '../src/ids.js';
import { globalKeys } from '../src/redis/keys.js';
import type { Runtime } from '../src/runtime.js';
import { sha256Hex } from '../src/secrets.js';

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

const keyOf = (clientId: string): string => globalKeys.oauthClient(sha256Hex(clientId));

export async function registerClient(rt: Runtime, metadata: { client_name: string; redirect_uris: string[] }): Promise<OAuthClient> {
  const client: OAuthClient = {
    client_id: `mcl_${randomBase62(24)}`,
    client_name: metadata.client_name,
    redirect_uris: metadata.redirect_uris,
    source: 'registered',
    client_id_issued_at: Math.floor(rt.clock.now() / 1000),
  };
  await rt.redis.set(keyOf(client.client_id), JSON.stringify(client), 'PX', CLIENT_RULES.unusedMs);
  return client;
}

/** Keeps a fetched Client ID Metadata Document for an hour: the next steps of the flow need not fetch it again. */
export async function keepClientDocument(rt: Runtime, client: OAuthClient): Promise<void> {
  await rt.redis.set(keyOf(client.client_id), JSON.stringify(client), 'PX', CLIENT_RULES.documentMs);
}

export async function storedClient(rt: Runtime, clientId: string): Promise<OAuthClient | null> {
  const json = await rt.redis.get(keyOf(clientId));
  return json ? (JSON.parse(json) as OAuthClient) : null;
}

/** A registered client in use is kept 30 days more (a document is fetched again when its hour is up). */
export async function keepClientInUse(rt: Runtime, client: OAuthClient): Promise<void> {
  if (client.source === 'registered') await rt.redis.pexpire(keyOf(client.client_id), CLIENT_RULES.registeredMs);
}
