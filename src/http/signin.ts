/**
 * The human's sign-in on the service's pages (actors/human-session.ts): `/signin` asks the space's human
 * e-mail, then the 6-digit code mailed to it, and sets the session cookie; `/signout` ends it. Other
 * pages (the OAuth consent page, the standalone workspace) plug in with:
 *   - `signInRoutes(app, rt)`: registers the routes;
 *   - `sessionOf(rt, request)`: the signed-in human and the space, or null;
 *   - `signInLocation(next)`: where to send a visitor who is not signed in (back to `next` after);
 *   - `csrfToken(session, purpose)` / `validCsrf(...)`: a hidden field that proves a form was ours;
 *   - `fromOurOrigin(rt, request)`: a POST sent by a page of this service (or by no browser page).
 * The cookie is HttpOnly, SameSite=Strict, Secure when BASE_URL is https, and expires with the session.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { openSession, readSession, sendSignInCode, closeSession, signInTarget, type HumanSession } from '../../actors/human-session.js';
import type { SpaceState } from '../../actors/space.js';
import { asMailboxError, MailboxError } from '../errors.js';
import { idPattern } from '../ids.js';
import type { Runtime } from '../runtime.js';
import { escapeHtml, maskEmail } from '../texts.js';
import type { IncomingRequest, Reply } from './io.js';
import { hiddenFields, page, readForm, seeOther, servePage } from './pages.js';
import type { TemplatedApp } from './uws.js';

export const SESSION_COOKIE = 'mbx_session';
const FAILURE_TITLE = 'Connexion impossible';
const SPACE_ID = new RegExp(idPattern('space'));

export interface SignedIn {
  session: HumanSession;
  space: SpaceState;
}

function cookieOf(request: IncomingRequest, name: string): string | null {
  for (const part of (request.headers.cookie ?? '').split(/;\s*/)) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at) === name) return part.slice(at + 1);
  }
  return null;
}

/** The signed-in human of this request, or null (no cookie, or a session ended, expired or replaced). */
export async function sessionOf(rt: Runtime, request: IncomingRequest): Promise<SignedIn | null> {
  const secret = cookieOf(request, SESSION_COOKIE);
  return secret ? readSession(rt, secret) : null;
}

/**
 * A path of this service to come back to, else the sign-in page itself: never another site. Printable
 * ASCII only (a path and query as a browser sends them, percent-encoded): a browser drops a tab or a
 * line break inside a URL (`/<tab>/ailleurs.example` is `//ailleurs.example`, another site), and a
 * line break would end the Location header.
 */
const localPath = (next: string | null | undefined): string => (next && /^\/(?![/\\])[!-[\]-~]*$/.test(next) ? next : '/signin');

/** The sign-in page, coming back to `next` (a path of this service) once signed in. */
export const signInLocation = (next: string): string => `/signin?${new URLSearchParams({ next: localPath(next) })}`;

/** A form's proof that it was served to this session for `purpose`: derived from the session, nothing stored. */
export const csrfToken = (session: HumanSession, purpose: string): string =>
  createHmac('sha256', session.hash).update(`csrf:${purpose}`).digest('base64url');

export function validCsrf(session: HumanSession, purpose: string, given: string | null): boolean {
  const expected = Buffer.from(csrfToken(session, purpose));
  const actual = Buffer.from(given ?? '');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A browser says where a POST comes from; another site's page is refused (no Origin: not sent by a page). */
export function fromOurOrigin(rt: Runtime, request: IncomingRequest): boolean {
  const origin = request.headers.origin;
  return origin === undefined || origin === new URL(rt.config.baseUrl).origin;
}

function sessionCookie(rt: Runtime, value: string, maxAgeSeconds: number): string {
  const secure = rt.config.baseUrl.startsWith('https:') ? '; Secure' : '';
  return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure}`;
}

interface Step {
  email: string;
  space: string | null;
  next: string;
}

function stepOf(form: URLSearchParams): Step {
  const space = form.get('space')?.trim() || null;
  if (space && !SPACE_ID.test(space)) throw new MailboxError('invalid_argument', { parameter: 'space' }, { reason: "ce n'est pas un identifiant d'espace (spc_...)." });
  return { email: (form.get('email') ?? '').trim().toLowerCase(), space, next: localPath(form.get('next')) };
}

const problem = (message: string | null): string => (message ? `<p class="error">${escapeHtml(message)}</p>` : '');

function emailForm(step: Step, options: { status?: number; message?: string | null; askSpace?: boolean } = {}): Reply {
  const spaceField = options.askSpace || step.space
    ? `<label>Identifiant de l'espace <input type="text" name="space" required pattern="spc_[0-9a-z]+" value="${escapeHtml(step.space ?? '')}"></label>` +
      `<p class="note">Cette adresse est l'humain de plusieurs espaces : l'identifiant (spc_…) figure dans get_settings et dans les messages du service.</p>`
    : '';
  return page(options.status ?? 200, 'Connexion à Mailbox',
    problem(options.message ?? null) +
    `<form method="post" action="/signin">${hiddenFields({ next: step.next })}` +
    `<label>Adresse e-mail de l'humain de l'espace <input type="email" name="email" required autocomplete="email" value="${escapeHtml(step.email)}"></label>` +
    `${spaceField}<button type="submit">Recevoir un code</button></form>` +
    `<p class="note">Un code à 6 chiffres part à cette adresse si c'est celle de l'humain d'un espace.</p>`);
}

function codeForm(step: Step, options: { status?: number; message?: string | null } = {}): Reply {
  return page(options.status ?? 200, 'Code de connexion',
    problem(options.message ?? null) +
    `<p>Si <strong>${escapeHtml(maskEmail(step.email) ?? '')}</strong> est l'adresse de l'humain d'un espace, un code à 6 chiffres vient d'y partir ; il est valable 15 minutes.</p>` +
    `<form method="post" action="/signin/code">${hiddenFields({ email: step.email, space: step.space, next: step.next })}` +
    `<label>Code reçu <input type="text" name="code" required inputmode="numeric" pattern="[0-9]{6}" autocomplete="one-time-code"></label>` +
    `<button type="submit">Me connecter</button></form>` +
    `<form method="post" action="/signin">${hiddenFields({ email: step.email, space: step.space, next: step.next })}<button class="secondary" type="submit">Renvoyer un code</button></form>`);
}

function signedInPage(signedIn: SignedIn): Reply {
  return page(200, 'Vous êtes connecté(e)',
    `<p>Connecté(e) en tant qu'humain de l'espace <strong>${escapeHtml(signedIn.space.name)}</strong> (${escapeHtml(signedIn.space.id)}).</p>` +
    `<form method="post" action="/signout"><button class="secondary" type="submit">Me déconnecter</button></form>`);
}

const foreignForm = (): MailboxError => new MailboxError('forbidden', null, { reason: "Ce formulaire ne vient pas d'une page de ce service." });

/** Step 1: the address (and the space, when it is the human of several); a code leaves if it is a space's human. */
async function askCode(rt: Runtime, step: Step): Promise<Reply> {
  if (!step.email.includes('@')) return emailForm(step, { status: 400, message: 'Indiquez une adresse e-mail.' });
  const target = await signInTarget(rt, step.email, step.space);
  if (target.kind === 'choose') return emailForm(step, { askSpace: true });
  if (target.kind === 'unknown') return codeForm(step);
  try {
    await sendSignInCode(rt, target.spaceId, step.email);
  } catch (error) {
    const refusal = asMailboxError(error);
    if (refusal.code === 'internal' || refusal.code === 'service_unavailable') throw error;
    return codeForm(step, { status: refusal.status, message: refusal.message });
  }
  return codeForm(step);
}

/** Step 2: the code opens the session and the browser goes back where it was going. */
async function checkCode(rt: Runtime, step: Step, code: string): Promise<Reply> {
  const target = await signInTarget(rt, step.email, step.space);
  // An address that is nobody's human gets the answer a wrong code would, without an attempt to count.
  if (target.kind !== 'space') return codeForm(step, { status: 422, message: new MailboxError('invalid_code').message });
  try {
    const { secret, session } = await openSession(rt, target.spaceId, step.email, code);
    const maxAge = Math.floor((session.expiresAt - rt.clock.now()) / 1000);
    return seeOther(step.next, { 'set-cookie': sessionCookie(rt, secret, maxAge) });
  } catch (error) {
    const refusal = asMailboxError(error);
    if (refusal.code === 'internal' || refusal.code === 'service_unavailable') throw error;
    return codeForm(step, { status: refusal.status, message: refusal.message });
  }
}

export function signInRoutes(app: TemplatedApp, rt: Runtime): void {
  app.get('/signin', (res, req) =>
    servePage(rt, res, req, FAILURE_TITLE, async (request) => {
      const query = new URLSearchParams(request.query);
      const signedIn = await sessionOf(rt, request);
      if (signedIn && query.get('next')) return seeOther(localPath(query.get('next')));
      if (signedIn) return signedInPage(signedIn);
      return emailForm(stepOf(query));
    }),
  );
  app.post('/signin', (res, req) =>
    servePage(rt, res, req, FAILURE_TITLE, async (request, body) => {
      if (!fromOurOrigin(rt, request)) throw foreignForm();
      return askCode(rt, stepOf(readForm(body)));
    }),
  );
  app.post('/signin/code', (res, req) =>
    servePage(rt, res, req, FAILURE_TITLE, async (request, body) => {
      if (!fromOurOrigin(rt, request)) throw foreignForm();
      const form = readForm(body);
      return checkCode(rt, stepOf(form), (form.get('code') ?? '').trim());
    }),
  );
  app.post('/signout', (res, req) =>
    servePage(rt, res, req, FAILURE_TITLE, async (request) => {
      if (!fromOurOrigin(rt, request)) throw foreignForm();
      const signedIn = await sessionOf(rt, request);
      if (signedIn) await closeSession(rt, signedIn.session);
      return seeOther('/signin', { 'set-cookie': sessionCookie(rt, '', 0) });
    }),
  );
}
