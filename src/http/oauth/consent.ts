/**
 * `GET|POST /oauth/authorize`: the consent page (French). The request is checked first: an unknown
 * client or a redirect URI it did not register is an error page, never a redirect; after that,
 * refusals go back to the client's redirect URI with the RFC's code (`unsupported_response_type`,
 * `invalid_request` without PKCE S256, `invalid_target`, `access_denied`). The human signs in
 * (src/http/signin.ts), sees the client's name and the host it returns to, chooses the permissions
 * (approve off by default) and optionally the inboxes, and allows or refuses. The form carries a CSRF
 * token derived from the session; the page is never framed (src/http/pages.ts).
 */
import OAuth2Server from '@node-oauth/oauth2-server';
import { redirectHost } from '../../../actors/connection.js';
import { listLiveInboxes } from '../../../actors/inbox.js';
import { humanAccess } from '../../../actors/human-session.js';
import { humanActor } from '../../../actors/journal.js';
import type { OAuthClient } from '../../../actors/oauth-clients.js';
import { MailboxError } from '../../errors.js';
import { idPattern } from '../../ids.js';
import { PERMISSIONS, type Permission } from '../../record-schemas.js';
import type { Runtime } from '../../runtime.js';
import { escapeHtml, PERMISSION_WORDS } from '../../texts.js';
import type { IncomingRequest, Reply } from '../io.js';
import { hiddenFields, page, readForm, seeOther } from '../pages.js';
import { csrfToken, fromOurOrigin, sessionOf, signInLocation, validCsrf, type SignedIn } from '../signin.js';
import { clientFor } from './clients.js';
import { checkResource, libraryRefusal, resourceOf, type Grantee } from './grants.js';
import { OAuthRefusal } from './refusal.js';

const CSRF_PURPOSE = 'oauth-consent';
const INBOX_ID = new RegExp(idPattern('inbox'));
/** The parameters of an authorization request that travel from the page to its form. */
const PARAMETERS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'state',
  'scope',
  'code_challenge',
  'code_challenge_method',
  'resource',
] as const;
type Parameters = Partial<Record<(typeof PARAMETERS)[number], string>>;

const parametersOf = (source: URLSearchParams): Parameters =>
  Object.fromEntries(PARAMETERS.flatMap((name) => (source.get(name) === null ? [] : [[name, source.get(name)!]])));

const errorPage = (message: string, status = 400): Reply =>
  page(
    status,
    'Autorisation impossible',
    `<p>${escapeHtml(message)}</p><p class="note">Rien n'a été autorisé. Revenez à l'application qui vous a envoyé ici.</p>`,
  );

/** Where a redirect may go: browsers check a form's redirects against `form-action` too. */
function formActionFor(redirectUri: string): string {
  const url = new URL(redirectUri);
  return `'self' ${url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol}`;
}

function redirectWith(redirectUri: string, fields: Record<string, string | undefined>): Reply {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) url.searchParams.set(name, value);
  return seeOther(url.href, { 'content-security-policy': "default-src 'none'; frame-ancestors 'none'" });
}

interface Checked {
  client: OAuthClient;
  redirectUri: string;
}

/** The client and its redirect URI, or the error page: nothing is sent to a URI not proven the client's. */
async function checkClient(rt: Runtime, params: Parameters): Promise<Checked | Reply> {
  if (!params.client_id) return errorPage('La demande ne dit pas quel client la fait (client_id manquant).');
  let client: OAuthClient | null;
  try {
    client = await clientFor(rt, params.client_id);
  } catch (error) {
    if (error instanceof OAuthRefusal) return errorPage(error.message);
    throw error;
  }
  if (!client) return errorPage("Ce client n'est pas enregistré auprès de ce serveur.");
  const redirectUri = params.redirect_uri ?? (client.redirect_uris.length === 1 ? client.redirect_uris[0]! : undefined);
  if (!redirectUri || !client.redirect_uris.includes(redirectUri)) {
    return errorPage("L'adresse de retour (redirect_uri) n'est pas une de celles que ce client a déclarées.");
  }
  return { client, redirectUri };
}

/** The refusals that go back to the client, in the RFC's order; null when the request is sound. */
function requestRefusal(rt: Runtime, params: Parameters): OAuthRefusal | null {
  if (params.response_type !== 'code')
    return new OAuthRefusal('unsupported_response_type', 'Seul response_type=code est accepté.');
  if (
    !params.code_challenge ||
    params.code_challenge_method !== 'S256' ||
    !/^[A-Za-z0-9_-]{43}$/.test(params.code_challenge)
  ) {
    return new OAuthRefusal(
      'invalid_request',
      'PKCE obligatoire : code_challenge en S256 (code_challenge_method=S256).',
    );
  }
  try {
    checkResource(rt, params.resource);
  } catch (error) {
    return error as OAuthRefusal;
  }
  return null;
}

/** The permissions the client asked for (unknown scopes are ignored); `approve` is never ticked for it. */
function proposed(params: Parameters): Set<Permission> {
  const asked = (params.scope ?? '')
    .split(' ')
    .filter((s): s is Permission => (PERMISSIONS as readonly string[]).includes(s));
  return new Set((asked.length ? asked : PERMISSIONS).filter((p) => p !== 'approve'));
}

async function consentPage(
  rt: Runtime,
  signedIn: SignedIn,
  checked: Checked,
  params: Parameters,
  problem: string | null = null,
  status = 200,
): Promise<Reply> {
  const inboxes = await listLiveInboxes(rt, humanAccess(signedIn.session, signedIn.space));
  const ticked = proposed(params);
  const permissionBoxes = PERMISSIONS.map(
    (p) =>
      `<label><input type="checkbox" name="permission" value="${p}"${ticked.has(p) ? ' checked' : ''}> ${escapeHtml(PERMISSION_WORDS[p] ?? p)} (${p})</label>`,
  ).join('');
  const inboxBoxes = inboxes.length
    ? `<fieldset><legend>Boîtes ouvertes (aucune cochée : toutes)</legend>${inboxes
        .map(
          (inbox) =>
            `<label><input type="checkbox" name="inbox" value="${escapeHtml(inbox.id)}"> ${escapeHtml(inbox.address)}</label>`,
        )
        .join('')}</fieldset>`
    : '';
  const { client, redirectUri } = checked;
  const origin = client.source === 'document' ? ` (décrit par ${escapeHtml(new URL(client.client_id).host)})` : '';
  return page(
    status,
    'Connecter un assistant',
    (problem ? `<p class="error">${escapeHtml(problem)}</p>` : '') +
      `<p>L'application <strong>${escapeHtml(client.client_name)}</strong>${origin} demande à accéder à l'espace <strong>${escapeHtml(signedIn.space.name)}</strong>.</p>` +
      `<p>Si vous l'autorisez, elle recevra son accès sur <strong>${escapeHtml(redirectHost(redirectUri))}</strong>.</p>` +
      `<form method="post" action="/oauth/authorize">${hiddenFields({ ...params, redirect_uri: redirectUri, csrf: csrfToken(signedIn.session, CSRF_PURPOSE) })}` +
      `<fieldset><legend>Permissions</legend>${permissionBoxes}</fieldset>${inboxBoxes}` +
      `<p class="note">La validation (approve) permet d'approuver les envois et de gérer les clés : ne la donnez qu'à un assistant de confiance. ` +
      `Vous pourrez retirer cet accès à tout moment (revoke_key).</p>` +
      `<button type="submit" name="decision" value="allow">Autoriser</button> <button class="secondary" type="submit" name="decision" value="refuse">Refuser</button></form>`,
    { formAction: formActionFor(redirectUri) },
  );
}

/** `GET /oauth/authorize`: checks, then the sign-in, then the consent page. */
export async function authorizePage(rt: Runtime, request: IncomingRequest): Promise<Reply> {
  const params = parametersOf(new URLSearchParams(request.query));
  const checked = await checkClient(rt, params);
  if (!('client' in checked)) return checked;
  const refusal = requestRefusal(rt, params);
  if (refusal)
    return redirectWith(checked.redirectUri, {
      error: refusal.error,
      error_description: refusal.message,
      state: params.state,
    });
  const signedIn = await sessionOf(rt, request);
  if (!signedIn) return seeOther(signInLocation(`/oauth/authorize?${request.query}`));
  return consentPage(rt, signedIn, checked, params);
}

/** `POST /oauth/authorize`: the human's decision. Allowing creates the connection and its code. */
export async function authorizeDecision(
  rt: Runtime,
  server: OAuth2Server,
  request: IncomingRequest,
  body: Buffer,
): Promise<Reply> {
  if (!fromOurOrigin(rt, request)) return errorPage("Ce formulaire ne vient pas d'une page de ce service.", 403);
  const form = readForm(body);
  const params = parametersOf(form);
  const checked = await checkClient(rt, params);
  if (!('client' in checked)) return checked;
  const signedIn = await sessionOf(rt, request);
  if (!signedIn) return seeOther(signInLocation(`/oauth/authorize?${new URLSearchParams(params)}`));
  if (!validCsrf(signedIn.session, CSRF_PURPOSE, form.get('csrf')))
    return errorPage('Ce formulaire a expiré ou ne vient pas de cette session : rechargez la page.', 403);
  const refusal = requestRefusal(rt, params);
  if (refusal)
    return redirectWith(checked.redirectUri, {
      error: refusal.error,
      error_description: refusal.message,
      state: params.state,
    });
  if (form.get('decision') !== 'allow') {
    return redirectWith(checked.redirectUri, {
      error: 'access_denied',
      error_description: "L'humain de l'espace a refusé.",
      state: params.state,
    });
  }
  const permissions = PERMISSIONS.filter((p) => form.getAll('permission').includes(p));
  if (!permissions.length)
    return consentPage(rt, signedIn, checked, params, 'Cochez au moins une permission, ou refusez.', 400);
  const inboxIds = form.getAll('inbox');
  if (inboxIds.some((id) => !INBOX_ID.test(id)))
    return consentPage(rt, signedIn, checked, params, 'Boîte inconnue.', 400);
  const user: Grantee = {
    spaceId: signedIn.space.id,
    keyId: '',
    resource: resourceOf(rt),
    consent: {
      human: humanActor(signedIn.session.email),
      request: {
        clientId: checked.client.client_id,
        clientName: checked.client.client_name,
        redirectUri: checked.redirectUri,
        codeChallenge: params.code_challenge!,
        resource: resourceOf(rt),
        permissions,
        inboxIds: inboxIds.length ? inboxIds : null,
      },
    },
  };
  const response = new OAuth2Server.Response();
  try {
    await server.authorize(
      new OAuth2Server.Request({
        method: 'POST',
        headers: request.headers,
        query: {},
        body: { ...params, redirect_uri: checked.redirectUri },
      }),
      response,
      { authenticateHandler: { handle: () => user } },
    );
  } catch (error) {
    const cause = (error as { inner?: unknown }).inner ?? error;
    if (cause instanceof MailboxError && ['not_found', 'key_limit'].includes(cause.code)) {
      return consentPage(rt, signedIn, checked, params, cause.message, cause.status);
    }
    if (cause instanceof MailboxError) throw cause;
    const refused = libraryRefusal(error);
    return redirectWith(checked.redirectUri, {
      error: refused.error,
      error_description: refused.message,
      state: params.state,
    });
  }
  return redirectWith(response.get('location') as string, {});
}
