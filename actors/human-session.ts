/**
 * The space's human signs in on the service's pages (the OAuth consent page, the standalone workspace)
 * with the space's human e-mail and a 6-digit code, under the code rules of actors/codes.ts (purpose
 * `signin`). A session is a secret `mbs_<space-prefix>_<32 base62>` kept by the browser in a cookie
 * (src/http/signin.ts) and stored here only as its sha256, under the space's tag, expiring. It acts with
 * every permission and is journaled as `human` (decisions.md 12).
 *
 * Which space: the address is looked up in an index of human addresses (globalKeys.human), filled
 * before a space is created or its human verified; a member whose human is now another address is
 * skipped. An address that is the human of several spaces names the space it signs into.
 */
import { iso } from '../src/clock.js';
import { MailboxError } from '../src/errors.js';
import { randomBase62 } from '../src/ids.js';
import { spaceKeys } from '../src/redis/keys.js';
import type { Runtime } from '../src/runtime.js';
import { keySecret, sha256Hex, spaceOfSecret } from '../src/secrets.js';
import { maskEmail } from '../src/texts.js';
import { PERMISSIONS } from '../src/records.js';
import { CODE_RULES, hashCode, issueCode, pendingCode } from './codes.js';
import { humanActor, lineArgs, prepareLine } from './journal.js';
import { normaliseEmail, spacesOfHuman } from './human-index.js';
import { readSpace, type Access, type SpaceState } from './space.js';

/**
 * Where a sign-in goes: `unknown` when the address is no space's human (the page says the same as for
 * a sent code, so it does not tell who is a human here), `choose` when it is the human of several
 * spaces and none of them was named.
 */
export type SignInTarget = { kind: 'space'; spaceId: string } | { kind: 'unknown' } | { kind: 'choose' };

export async function signInTarget(rt: Runtime, email: string, spaceId: string | null): Promise<SignInTarget> {
  const spaces = await spacesOfHuman(rt, email);
  if (spaceId) return spaces.includes(spaceId) ? { kind: 'space', spaceId } : { kind: 'unknown' };
  if (spaces.length === 1) return { kind: 'space', spaceId: spaces[0]! };
  return spaces.length ? { kind: 'choose' } : { kind: 'unknown' };
}

/** E-mails a sign-in code for the space to its human; returns when the code stops being valid (ms). */
export async function sendSignInCode(rt: Runtime, spaceId: string, email: string): Promise<number> {
  const address = normaliseEmail(email);
  const name = (await rt.redis.hget(spaceKeys(spaceId).space, 'name')) ?? spaceId;
  return issueCode(rt, spaceId, humanActor(address), 'signin', {
    to: address,
    subject: 'Votre code de connexion Mailbox',
    text: (code) =>
      `Bonjour,\n\nQuelqu'un demande à se connecter à l'espace Mailbox ${name} avec votre adresse.\n\n` +
      `Code de confirmation : ${code}\n\nIl est valable ${CODE_RULES.validityMs / 60_000} minutes. ` +
      `Saisissez-le sur la page de connexion ; ne le donnez à personne, pas même à un agent.\n` +
      `Si vous n'êtes pas à l'origine de cette demande, ignorez ce message.\n`,
  });
}

export interface HumanSession {
  spaceId: string;
  email: string;
  /** sha256 of the session's secret: what names it in Redis, and what the page's CSRF tokens derive from. */
  hash: string;
  createdAt: number;
  expiresAt: number;
}

/**
 * Checks the code and opens a session. Refusals: no_pending_code (also when the address stopped being
 * the space's human), code_expired, invalid_code {attempts_left}, too_many_attempts.
 */
export async function openSession(rt: Runtime, spaceId: string, email: string, code: string): Promise<{ secret: string; session: HumanSession }> {
  const address = normaliseEmail(email);
  const pending = await pendingCode(rt, spaceId, 'signin');
  if (!pending) throw new MailboxError('no_pending_code');
  const secret = keySecret(spaceId, randomBase62(32), 'mbs');
  const hash = sha256Hex(secret);
  const now = rt.clock.now();
  const expiresAt = now + rt.config.humanSessionMs;
  const keys = spaceKeys(spaceId);
  const line = prepareLine(rt, 'human.signed_in', humanActor(address), {}, { until: iso(expiresAt) });
  await rt.scripts.run(
    'space/openSession',
    { code: keys.code('signin'), space: keys.space, session: keys.session(hash), journal: keys.journal, journalIndex: keys.journalIndex },
    [now, pending.salt, hashCode(pending.salt, code), CODE_RULES.attempts, address, expiresAt, ...lineArgs(line)],
  );
  return { secret, session: { spaceId, email: address, hash, createdAt: now, expiresAt } };
}

/**
 * The live session behind a secret, with its space, or null: unknown, expired, or its address no longer
 * the space's human (replacing the human signs the old one out).
 */
export async function readSession(rt: Runtime, secret: string): Promise<{ session: HumanSession; space: SpaceState } | null> {
  const spaceId = spaceOfSecret(secret, 'mbs');
  if (!spaceId) return null;
  const keys = spaceKeys(spaceId);
  const hash = sha256Hex(secret);
  const [stored, space] = await Promise.all([rt.redis.hgetall(keys.session(hash)), rt.redis.hgetall(keys.space)]);
  const expiresAt = Number(stored.expires_at);
  if (!stored.email || !space.id || space.human_email !== stored.email || rt.clock.now() >= expiresAt) return null;
  return { session: { spaceId, email: stored.email, hash, createdAt: Number(stored.created_at), expiresAt }, space: readSpace(space) };
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
