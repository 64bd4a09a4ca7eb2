/**
 * The 6-digit codes the space's human receives by e-mail (docs/contract.md, Decision 2, Parts 3 and 8):
 * `verify` (attach_human, then verify) and `close` (close_space), asked by the space's keys (or its
 * signed-in human) through the tools. One set of rules: hashed at rest (sha256 of a per-code salt and the
 * code), valid 15 minutes, 10 attempts, 60 s between sends, at most 5 codes per space in 24 h. Deciding
 * is atomic (lua/space/issueCode, checkCode); the e-mail (the runtime's systemMail port) leaves between
 * the two steps of issuing, and a failed e-mail undoes the code (code_not_sent). The human's sign-in
 * codes follow the same rules of validity and attempts, with budgets of their own
 * (actors/signin-codes.ts): a stranger asking them never spends the space's five.
 */
import { randomBytes } from 'node:crypto';
import type { Runtime } from '../src/runtime.js';
import { spaceKeys } from '../src/redis/keys.js';
import { randomDigits } from '../src/ids.js';
import { MailboxError } from '../src/errors.js';
import { maskEmail } from '../src/texts.js';
import { sha256Hex } from '../src/secrets.js';
import * as spaceLua from './bindings/space.generated.js';
import { lineArgs, prepareLine, type Actor, type PreparedLine } from './journal.js';

export type CodePurpose = 'verify' | 'close';

export const CODE_RULES = {
  /**
   * The validity the tools promise. docs/contract.md also says a code "older than 24 hours is code_expired":
   * that holds a fortiori, since any code past these 15 minutes answers code_expired until replaced.
   */
  validityMs: 15 * 60_000,
  attempts: 10,
  spacingMs: 60_000,
  perWindow: 5,
  windowMs: 24 * 3600_000,
} as const;

export const hashCode = (salt: string, code: string): string => sha256Hex(`${salt}:${code}`);

export interface CodeMail {
  to: string;
  subject: string;
  /** The mail's text around the code; the code is only ever in this mail, never stored nor logged. */
  text: (code: string) => string;
}

/** Issues a code of `purpose` for the space, asked by `actor`, and e-mails it; returns when it stops being valid (ms). */
export async function issueCode(
  rt: Runtime,
  spaceId: string,
  actor: Actor,
  purpose: CodePurpose,
  mail: CodeMail,
  payload = '',
): Promise<number> {
  const keys = spaceKeys(spaceId);
  const code = randomDigits(6);
  const salt = randomBytes(16).toString('hex');
  const now = rt.clock.now();
  const expiresAt = now + CODE_RULES.validityMs;
  const line = prepareLine(rt, 'code.sent', actor, {}, { purpose, to: maskEmail(mail.to) });
  await spaceLua.issueCode(
    rt.scripts,
    {
      code: keys.code(purpose),
      codeSends: keys.codeSends,
      space: keys.space,
      journal: keys.journal,
      journalIndex: keys.journalIndex,
    },
    {
      now,
      salt,
      codeHash: hashCode(salt, code),
      expiresAt,
      payload,
      spacing: CODE_RULES.spacingMs,
      perWindow: CODE_RULES.perWindow,
      window: CODE_RULES.windowMs,
      ...lineArgs(line),
    },
  );
  const sent = await rt.ports
    .systemMail({ to: mail.to, subject: mail.subject, text: mail.text(code) })
    .catch((error: Error) => {
      rt.log.warn('code e-mail failed', { space_id: spaceId, purpose, error: error.message });
      return null;
    });
  if (!sent?.ok) {
    if (sent) rt.log.warn('code e-mail refused', { space_id: spaceId, purpose, code: sent.code });
    await spaceLua.dropCode(
      rt.scripts,
      { code: keys.code(purpose), codeSends: keys.codeSends, journal: keys.journal, journalIndex: keys.journalIndex },
      { salt, lineId: line.id, lineRefs: line.refs },
    );
    throw new MailboxError('code_not_sent');
  }
  return expiresAt;
}

/** The pending code's salt and payload, or null: what a check hashes the candidate with. */
export async function pendingCode(
  rt: Runtime,
  spaceId: string,
  purpose: CodePurpose,
): Promise<{ salt: string; hash: string; expiresAt: number; payload: string } | null> {
  const [salt, hash, expiresAt, payload] = await rt.redis.hmget(
    spaceKeys(spaceId).code(purpose),
    'salt',
    'hash',
    'expires_at',
    'payload',
  );
  return salt && hash ? { salt, hash, expiresAt: Number(expiresAt), payload: payload ?? '' } : null;
}

/** Whether a candidate is the pending code, still valid (a read, nothing counted: see checkCode). */
export const matchesCode = (
  pending: { salt: string; hash: string; expiresAt: number },
  candidate: string,
  now: number,
): boolean => now <= pending.expiresAt && hashCode(pending.salt, candidate) === pending.hash;

/**
 * Checks `candidate` against the pending code read as `pending` and, when right, sets `fields` on the
 * space with `line`, atomically. Refusals: no_pending_code, code_expired, invalid_code
 * {attempts_left}, too_many_attempts.
 */
export async function checkCode(
  rt: Runtime,
  spaceId: string,
  purpose: CodePurpose,
  pending: { salt: string } | null,
  candidate: string,
  fields: Record<string, string>,
  line: PreparedLine,
): Promise<void> {
  if (!pending) throw new MailboxError('no_pending_code');
  const keys = spaceKeys(spaceId);
  await spaceLua.checkCode(
    rt.scripts,
    { code: keys.code(purpose), space: keys.space, journal: keys.journal, journalIndex: keys.journalIndex },
    {
      now: rt.clock.now(),
      salt: pending.salt,
      candidateHash: hashCode(pending.salt, candidate),
      attempts: CODE_RULES.attempts,
      fields: JSON.stringify(fields),
      ...lineArgs(line),
    },
  );
}
