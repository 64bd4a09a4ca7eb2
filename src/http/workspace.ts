/**
 * The workspace for a person in a browser (docs/contract.md, Decision 6): `GET /workspace` serves the same view as
 * the MCP App (src/workspace/view.ts), which then calls `POST /v1/<tool>` like any client. The human
 * signed in on /signin (src/http/signin.ts) is recognised there by the session cookie, acting with
 * every permission and journaled as `human`; a person with a key gives it in the page instead.
 */
import { humanAccess } from '../../actors/human-session.js';
import type { Access } from '../../actors/space.js';
import { MailboxError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import { workspaceHtml } from '../workspace/view.js';
import type { IncomingRequest, Reply } from './io.js';
import { fromOurOrigin, sessionOf } from './signin.js';

/**
 * The header the view sends with every call: a page of another site cannot set it without a CORS
 * preflight this service never grants, so with SameSite=Strict and the Origin check the cookie only
 * ever acts for the view itself.
 */
const VIEW_HEADER = 'x-mailbox-view';

const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  // same-origin, not no-referrer: the view's calls must carry their Origin (null under no-referrer).
  'referrer-policy': 'same-origin',
  'x-robots-tag': 'noindex',
  'x-frame-options': 'DENY',
  'content-security-policy':
    // Remote images only inside a message's HTML version, once the person asks (web/workspace/pages-mail.js): its
    // frame inherits this policy and narrows it with its own.
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data: https: http:; " +
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
};

export const workspacePage = (rt: Runtime): Reply => ({
  status: 200,
  body: workspaceHtml('web', rt.config.baseUrl),
  headers: HEADERS,
});

/**
 * The signed-in human behind a call of the view that carries no key, or null (then the call needs a
 * key as any other). A call from another site's page is refused.
 */
export async function viewSessionAccess(rt: Runtime, request: IncomingRequest): Promise<Access | null> {
  if (request.headers[VIEW_HEADER] !== 'workspace') return null;
  if (!fromOurOrigin(rt, request))
    throw new MailboxError('forbidden', null, { reason: "Cette requête ne vient pas d'une page de ce service." });
  const signedIn = await sessionOf(rt, request);
  return signedIn ? humanAccess(signedIn.session, signedIn.space) : null;
}
