/**
 * The human's sign-in codes (docs/architecture.md, "The human's sign-in"): asked on a page by anyone
 * who types an address, so kept apart from the space (whose five codes a day stay the tools'), under
 * the address's own tag (globalKeys.humanCodeSends, humanAttempt, humanDevices).
 *
 * - Step 1 (`requestSignInCode`) does the same Redis work and answers the same whether or not the
 *   address is a space's human: one script stores an attempt (a code, hashed) either way; the e-mail,
 *   when there is a human to send it to, leaves after the answer, so its time tells nothing.
 * - Each attempt is its own: a code asked by a stranger never voids the human's.
 * - Budgets: one code a minute and five a day per requester, a requester being a browser that signed
 *   in as the address before (its device cookie) or else the client's address; strangers (every client
 *   address together) twenty a day per address, which bounds the guesses at its codes (200 a day, one
 *   chance in 5,000) and never stops a browser that signed in before.
 * - Step 2 (`checkSignInCode`): the code rules of actors/codes.ts (15 minutes, 10 attempts).
 */
import { randomBytes } from 'node:crypto';
import { MailboxError } from '../src/errors.js';
import { randomBase62, randomDigits } from '../src/ids.js';
import { globalKeys } from '../src/redis/keys.js';
import type { Runtime } from '../src/runtime.js';
import { routePath } from '../src/workspace/pages.js';
import { sha256Hex } from '../src/secrets.js';
import { maskEmail } from '../src/texts.js';
import { CODE_RULES, hashCode } from './codes.js';
import { normaliseEmail, spacesOfHuman } from './human-index.js';
import { appendLine, humanActor, prepareLine } from './journal.js';
import * as humanLua from './bindings/human.generated.js';

export const SIGN_IN_RULES = {
  /** Codes one requester may get for one address in the window (CODE_RULES.windowMs), one a minute. */
  perRequester: 5,
  /** Codes strangers may get for one address in the window, all together. */
  strangers: 20,
  /** Browsers remembered per address (the least recent goes), and how long after their last sign-in. */
  devices: 10,
  deviceMs: 180 * 24 * 3600_000,
} as const;

export interface CodeRequest {
  email: string;
  /** The space the form named, or null: any space the address is the human of. */
  space: string | null;
  /** The client's address (src/http/anonymous.ts). */
  client: string;
  /** The browser's device cookie, set at an earlier sign-in, or null. */
  device: string | null;
}

function addressKeys(address: string) {
  const hash = sha256Hex(address);
  return {
    spaces: globalKeys.human(hash),
    sends: globalKeys.humanCodeSends(hash),
    devices: globalKeys.humanDevices(hash),
    attempt: (attemptId: string) => globalKeys.humanAttempt(hash, sha256Hex(attemptId)),
  };
}

/** The code e-mails on their way, each started after the answer of its request. */
const mailing = new Set<Promise<void>>();

/** Resolves once every sign-in code e-mail started so far has left or failed. */
export async function signInMailsSent(): Promise<void> {
  while (mailing.size) await Promise.all(mailing);
}

/**
 * Step 1: a code for the address, e-mailed after the answer if it is a space's human. Returns the
 * attempt's id, which the code form carries. Refusals: code_too_soon, signin_code_limit.
 */
export async function requestSignInCode(rt: Runtime, request: CodeRequest): Promise<string> {
  const address = normaliseEmail(request.email);
  const keys = addressKeys(address);
  const attemptId = randomBase62(24);
  const code = randomDigits(6);
  const salt = randomBytes(16).toString('hex');
  const now = rt.clock.now();
  const reply = await humanLua.askCode(
    rt.scripts,
    { spaces: keys.spaces, sends: keys.sends, attempt: keys.attempt(attemptId), devices: keys.devices },
    {
      now,
      address: request.client,
      device: request.device ? sha256Hex(request.device) : '',
      spaceId: request.space ?? '',
      salt,
      codeHash: hashCode(salt, code),
      expiresAt: now + CODE_RULES.validityMs,
      spacing: CODE_RULES.spacingMs,
      perRequester: SIGN_IN_RULES.perRequester,
      strangers: SIGN_IN_RULES.strangers,
      window: CODE_RULES.windowMs,
    },
  );
  const candidates = reply.spaces.split(' ').filter(Boolean);
  if (candidates.length) {
    const mail = new Promise<void>((resolve) => setImmediate(resolve)).then(() =>
      mailCode(rt, address, candidates, code),
    );
    mailing.add(mail);
    void mail.finally(() => mailing.delete(mail));
  }
  return attemptId;
}

/** Sends the code to the address if it is still the human of one of the spaces; journals it there. Never throws. */
async function mailCode(rt: Runtime, address: string, candidates: string[], code: string): Promise<void> {
  try {
    const spaces = await spacesOfHuman(rt, address, candidates);
    if (!spaces.length) return;
    const which =
      spaces.length === 1
        ? `à l'espace Mailbox ${spaces[0]!.name}`
        : `à l'un de vos espaces Mailbox (${spaces.map((space) => space.name).join(', ')})`;
    const sent = await rt.ports.systemMail({
      to: address,
      subject: 'Votre code de connexion Mailbox',
      text:
        `Bonjour,\n\nQuelqu'un demande à se connecter ${which} avec votre adresse.\n\n` +
        `Code de confirmation : ${code}\n\nIl est valable ${CODE_RULES.validityMs / 60_000} minutes, sur la page où il a été demandé. ` +
        `Saisissez-le sur cette page ; ne le donnez à personne, pas même à un agent.\n` +
        `Une fois connecté(e), l'espace de travail : ${rt.config.baseUrl}${routePath({ page: 'jour', arguments: {} })}\n` +
        `Si vous n'êtes pas à l'origine de cette demande, ignorez ce message : personne ne peut se connecter sans ce code.\n`,
    });
    if (!sent.ok)
      return rt.log.warn('sign-in code e-mail refused', {
        space_ids: spaces.map((space) => space.id),
        code: sent.code,
      });
    for (const space of spaces) {
      await appendLine(
        rt,
        space.id,
        prepareLine(rt, 'code.sent', humanActor(address), {}, { purpose: 'signin', to: maskEmail(address) }),
      );
    }
  } catch (error) {
    rt.log.warn('sign-in code e-mail failed', { error: (error as Error).message });
  }
}

export interface CodeCheck {
  email: string;
  /** The attempt's id, from the code form. */
  attempt: string;
  code: string;
  /** The space the form named, or null. */
  space: string | null;
  /** The browser's device cookie (a new one if it had none): remembered when the code is right. */
  device: string;
}

export type SignInCheck =
  { kind: 'space'; spaceId: string } | { kind: 'choose'; spaces: { id: string; name: string }[] };

/**
 * Step 2: the attempt's code. Right, it names the space to sign into, or, for the human of several
 * spaces who named none of them, the spaces to choose from (the code then stays as it was). Refusals:
 * no_pending_code (no such attempt, or no space to sign into), code_expired, invalid_code
 * {attempts_left}, too_many_attempts.
 */
export async function checkSignInCode(rt: Runtime, check: CodeCheck): Promise<SignInCheck> {
  const address = normaliseEmail(check.email);
  const keys = addressKeys(address);
  const attempt = keys.attempt(check.attempt);
  const salt = await rt.redis.hget(attempt, 'salt');
  if (!salt) throw new MailboxError('no_pending_code');
  const reply = await humanLua.checkCode(
    rt.scripts,
    { attempt, devices: keys.devices },
    {
      now: rt.clock.now(),
      salt,
      candidate: hashCode(salt, check.code),
      attempts: CODE_RULES.attempts,
      spaceId: check.space ?? '',
      device: sha256Hex(check.device),
      maxDevices: SIGN_IN_RULES.devices,
      deviceLife: SIGN_IN_RULES.deviceMs,
    },
  );
  if ('choose' in reply) {
    const spaces = await spacesOfHuman(rt, address, reply.choose.split(' '));
    if (spaces.length === 1) return checkSignInCode(rt, { ...check, space: spaces[0]!.id });
    if (!spaces.length) throw new MailboxError('no_pending_code');
    return { kind: 'choose', spaces };
  }
  if (!reply.space) throw new MailboxError('no_pending_code');
  return { kind: 'space', spaceId: reply.space };
}
