/**
 * The space's human signs in on the service's pages (the OAuth consent page, the standalone workspace)
 * with the space's human e-mail and a 6-digit code (actors/signin-codes.ts). A session is a secret
 * `mbs_<space-prefix>_<32 base62>` kept by the browser in a cookie (src/http/signin.ts) and stored here
 * only as its sha256, under the space's tag, expiring. It acts with every permission and is journaled
 * as `human` (docs/contract.md, Decision 12).
 */
import { iso } from '../src/clock.js';
import { randomBase62 } from '../src/ids.js';
import { spaceKeys } from '../src/redis/keys.js';
import type { Runtime } from '../src/runtime.js';
import { keySecret, sha256Hex, spaceOfSecret } from '../src/secrets.js';
import { maskEmail } from '../src/texts.js';
import { PERMISSIONS } from '../src/record-schemas.js';
import * as spaceLua from './bindings/space.generated.js';
import { humanActor, lineArgs, prepareLine } from './journal.js';
import { normaliseEmail } from './human-index.js';
import { readSpace, type Access, type SpaceState } from './space.js';

export interface HumanSession {
  spaceId: string;
  email: string;
  /** sha256 of the session's secret: what names it in Redis, and what the page's CSRF tokens derive from. */
  hash: string;
  createdAt: number;
  expiresAt: number;
}

/**
 * Opens a session for the space's human, whose sign-in code was found right (checkSignInCode).
 * Refusal: no_pending_code, when the space is gone or its human is another address now.
 */
export async function openSession(
  rt: Runtime,
  spaceId: string,
  email: string,
): Promise<{ secret: string; session: HumanSession }> {
  const address = normaliseEmail(email);
  const secret = keySecret(spaceId, randomBase62(32), 'mbs');
  const hash = sha256Hex(secret);
  const now = rt.clock.now();
  const expiresAt = now + rt.config.humanSessionMs;
  const keys = spaceKeys(spaceId);
  const line = prepareLine(rt, 'human.signed_in', humanActor(address), {}, { until: iso(expiresAt) });
  await spaceLua.openSession(
    rt.scripts,
    { space: keys.space, session: keys.session(hash), journal: keys.journal, journalIndex: keys.journalIndex },
    { now, email: address, expiresAt, ...lineArgs(line) },
  );
  return { secret, session: { spaceId, email: address, hash, createdAt: now, expiresAt } };
}

/**
 * The live session behind a secret, with its space, or null: unknown, expired, or its address no longer
 * the space's human (replacing the human signs the old one out).
 */
export async function readSession(
  rt: Runtime,
  secret: string,
): Promise<{ session: HumanSession; space: SpaceState } | null> {
  const spaceId = spaceOfSecret(secret, 'mbs');
  if (!spaceId) return null;
  const keys = spaceKeys(spaceId);
  const hash = sha256Hex(secret);
  const [stored, space] = await Promise.all([rt.redis.hgetall(keys.session(hash)), rt.redis.hgetall(keys.space)]);
  const expiresAt = Number(stored.expires_at);
  if (!stored.email || !space.id || space.human_email !== stored.email || rt.clock.now() >= expiresAt) return null;
  return {
    session: { spaceId, email: stored.email, hash, createdAt: Number(stored.created_at), expiresAt },
    space: readSpace(space),
  };
}

export async function closeSession(rt: Runtime, session: HumanSession): Promise<void> {
  await rt.redis.del(spaceKeys(session.spaceId).session(session.hash));
}

/**
 * The access a signed-in human acts with: every permission, every inbox, no daily cap, journaled as
 * `human` (actorOf). It is no stored key: list_keys never shows it and revoke_key cannot reach it.
 */
export function humanAccess(session: HumanSession, space: SpaceState): Access {
  return {
    key: {
      id: 'human',
      kind: 'key',
      name: maskEmail(session.email) ?? 'humain',
      name_norm: '',
      permissions: [...PERMISSIONS],
      inbox_ids: null,
      daily_cap: null,
      created_at: iso(session.createdAt),
      created_by: null,
      prefix: '',
      token_hash: session.hash,
    },
    space,
    lastUsedAt: null,
    rate: { remaining: 1, fullInSeconds: 0 },
    human: session.email,
  };
}
