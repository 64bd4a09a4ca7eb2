/**
 * The unsubscribe endpoint of every outgoing message's link, `<BASE_URL>/u/<token>` (decisions.md 4):
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
import { readBody, readRequest, send, type IncomingRequest, type Reply } from './io.js';
import type { HttpRequest, HttpResponse, TemplatedApp } from './uws.js';

/** The one-click body (`List-Unsubscribe=One-Click`) or the page's form: a few bytes. */
const MAX_BODY_BYTES = 4096;

const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  // The token is in the URL: no other site learns it from a Referer.
  'referrer-policy': 'no-referrer',
  'x-robots-tag': 'noindex',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
};

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#222;line-height:1.5}' +
  'button{font:inherit;padding:.6rem 1.2rem;border:0;border-radius:.4rem;background:#1d4ed8;color:#fff;cursor:pointer}' +
  '.note{color:#555;font-size:.9rem}';

/** `body` is trusted HTML of ours; every value from outside goes through escapeHtml first. */
function page(status: number, title: string, body: string): Reply {
  const html = `<!doctype html><html lang="fr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
  return { status, body: html, headers: HEADERS };
}

const unknownLink = (): Reply =>
  page(statusOf('not_found'), 'Lien inconnu', "<p>Ce lien de désabonnement n'est pas valable : il a peut-être été mal copié. Rien n'a été changé.</p>");

const TEST_NOTE = "<p class=\"note\">Ce message était un envoi de test : ce lien ne désabonne personne.</p>";

/** The form posts the RFC 8058 body itself, so the button and a provider's one-click take one path. */
function confirmation(target: UnsubscribeTarget): Reply {
  const who = escapeHtml(maskEmail(target.recipient) ?? '');
  return page(200, 'Se désabonner',
    `<p>Ne plus recevoir de messages de cet expéditeur à l'adresse <strong>${who}</strong> ?</p>` +
    `<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Me désabonner</button></form>` +
    (target.test ? TEST_NOTE : ''));
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
  return page(200, 'Vous êtes désabonné(e)', `<p>L'adresse <strong>${who}</strong> ne recevra plus de messages de cet expéditeur.</p>`);
}

/** A failure as a French page rather than the JSON error body: a person reads this, not a program. */
function failurePage(rt: Runtime, request: IncomingRequest, error: unknown): Reply {
  const refusal = asMailboxError(error);
  if (refusal.code === 'internal') rt.log.error('unsubscribe page failed', { method: request.method, error: String((error as Error)?.stack ?? error) });
  return { ...page(refusal.status, 'Désabonnement indisponible', `<p>${escapeHtml(refusal.message)}</p>`), close: refusal.code === 'payload_too_large' };
}

/**
 * Its own small request runner rather than the API's: the URL holds a token (a capability naming an
 * address) that the API's request log would write, and answers here are pages, not JSON bodies.
 */
function route(rt: Runtime, work: (token: string) => Promise<Reply>) {
  return (res: HttpResponse, req: HttpRequest) => {
    const token = req.getParameter(0) ?? '';
    const request = readRequest(res, req);
    readBody(res, MAX_BODY_BYTES)
      .then(() => work(token))
      .catch((error: unknown) => failurePage(rt, request, error))
      .then((reply) => send(res, request, reply));
  };
}

export function registerUnsubscribe(app: TemplatedApp, rt: Runtime): void {
  app.get('/u/:token', route(rt, async (token) => {
    const target = verifyUnsubscribeToken(rt, token);
    return target ? confirmation(target) : unknownLink();
  }));
  app.post('/u/:token', route(rt, async (token) => {
    const target = verifyUnsubscribeToken(rt, token);
    return target ? unsubscribe(rt, target) : unknownLink();
  }));
}
