/**
 * The space's human (docs/contract.md, Decision 2): attach_human sends a code to the address given; verify with that
 * code attaches the address and verifies the space, in one step. Until then the space keeps its
 * current human and state: a mistyped address, or an agent's attempt to swap the human, changes
 * nothing without the new person's code.
 */
import type { Runtime } from '../src/runtime.js';
import { routePath } from '../src/workspace/pages.js';
import { maskEmail } from '../src/texts.js';
import { CODE_RULES, checkCode, issueCode, pendingCode } from './codes.js';
import { indexHuman } from './human-index.js';
import { prepareLine } from './journal.js';
import { actorOf, type Access } from './space.js';

/** Sends the code to `email`; returns when it stops being valid (ms). */
export async function attachHuman(rt: Runtime, access: Access, email: string): Promise<number> {
  return issueCode(
    rt,
    access.space.id,
    actorOf(access),
    'verify',
    {
      to: email,
      subject: 'Votre code de confirmation Mailbox',
      text: (code) =>
        `Bonjour,\n\nVous êtes désigné comme la personne responsable de l'espace Mailbox ${access.space.name}.\n\n` +
        `Code de confirmation : ${code}\n\nIl est valable ${CODE_RULES.validityMs / 60_000} minutes. ` +
        `Donnez-le à l'agent qui vous l'a demandé (outil verify).\n` +
        `Ensuite, l'espace se gère ici, en vous connectant avec cette adresse : ${rt.config.baseUrl}${routePath({ page: 'espace', arguments: {} })}\n` +
        `Si vous n'êtes pas à l'origine de cette demande, ignorez ce message.\n`,
    },
    email,
  );
}

/** The code attaches its address as the human and verifies the space. Returns the address attached. */
export async function verifySpace(rt: Runtime, access: Access, code: string): Promise<string> {
  const pending = await pendingCode(rt, access.space.id, 'verify');
  const email = pending?.payload ?? '';
  if (email) await indexHuman(rt, email, access.space.id);
  const line = prepareLine(rt, 'space.verified', actorOf(access), {}, { human: maskEmail(email) });
  await checkCode(rt, access.space.id, 'verify', pending, code, { human_email: email, verified: '1' }, line);
  return email;
}
