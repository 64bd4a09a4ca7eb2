/**
 * The unsubscribe endpoint of every outgoing message's link, `<BASE_URL>/u/<token>` (docs/contract.md, Decision 4):
 * GET shows a plain French page with one button, never unsubscribing by itself (link scanners and
 * previews follow GETs); POST unsubscribes, both from that button and from a mailbox provider's
 * one-click request (RFC 8058: body `List-Unsubscribe=One-Click`, answered 200 with no redirect).
 * The token proves itself (src/delivery/unsubscribe.ts); a test send's token unsubscribes nobody.
 */
import { unsubscribeRecipient } from '../../actors/suppression.js';
import { verifyUnsubscribeToken, type UnsubscribeTarget } from '../delivery/unsubscribe.js';
import { asMailboxError, statusOf } from '../errors.js';
import type { Runtime } from '../runtime.js';
import { escapeHtml, maskEmail } from '../texts.js';
import type { Reply } from './io.js';
import { page, servePage } from './pages.js';
import type { HttpRequest, HttpResponse, TemplatedApp } from './uws.js';

const unknownLink = (): Reply =>
  page(
    statusOf('not_found'),
    'Lien inconnu',
    "<p>Ce lien de désabonnement n'est pas valable : il a peut-être été mal copié. Rien n'a été changé.</p>",
  );

const TEST_NOTE = '<p class="note">Ce message était un envoi de test : ce lien ne désabonne personne.</p>';

/** The form posts the RFC 8058 body itself, so the button and a provider's one-click take one path. */
function confirmation(target: UnsubscribeTarget): Reply {
  const who = escapeHtml(maskEmail(target.recipient) ?? '');
  return page(
    200,
    'Se désabonner',
    `<p>Ne plus recevoir de messages de cet expéditeur à l'adresse <strong>${who}</strong> ?</p>` +
      `<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Me désabonner</button></form>` +
      (target.test ? TEST_NOTE : ''),
  );
}

async function unsubscribe(rt: Runtime, target: UnsubscribeTarget): Promise<Reply> {
  if (target.test) return page(200, 'Envoi de test', `${TEST_NOTE}<p>Personne n'a été désabonné.</p>`);
  try {
    await unsubscribeRecipient(rt, target.spaceId, target.messageId, target.recipient);
  } catch (error) {
    // The sender's space no longer exists: nothing will be sent from it anyway.
    if (asMailboxError(error).code === 'not_found') return unknownLink();
    throw error;
  }
  const who = escapeHtml(maskEmail(target.recipient) ?? '');
  return page(
    200,
    'Vous êtes désabonné(e)',
    `<p>L'adresse <strong>${who}</strong> ne recevra plus de messages de cet expéditeur.</p>`,
  );
}

/** The token in the URL is read before anything else: uWS's request is only valid until the first await. */
function route(rt: Runtime, work: (token: string) => Promise<Reply>) {
  return (res: HttpResponse, req: HttpRequest) => {
    const token = req.getParameter(0) ?? '';
    servePage(rt, res, req, 'Désabonnement indisponible', () => work(token));
  };
}

export function registerUnsubscribe(app: TemplatedApp, rt: Runtime): void {
  app.get(
    '/u/:token',
    route(rt, async (token) => {
      const target = verifyUnsubscribeToken(rt, token);
      return target ? confirmation(target) : unknownLink();
    }),
  );
  app.post(
    '/u/:token',
    route(rt, async (token) => {
      const target = verifyUnsubscribeToken(rt, token);
      return target ? unsubscribe(rt, target) : unknownLink();
    }),
  );
}
