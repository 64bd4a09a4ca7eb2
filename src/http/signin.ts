/**
 * The human's sign-in on the service's pages (actors/signin-codes.ts, actors/human-session.ts): `/signin`
 * asks the space's human e-mail, then the 6-digit code mailed to it for the attempt the code form
 * carries, and sets the session cookie; `/signout` ends it. Both steps spend the sign-in's anonymous
 * budget first (src/http/anonymous.ts) and answer the same for any address. A browser gets a device
 * cookie at the first step: once a code typed in it is right, it draws on its own budget of codes. Other
 * pages (the OAuth consent page, the standalone workspace) plug in with:
 *   - `signInRoutes(app, rt)`: registers the routes;
 *   - `sessionOf(rt, request)`: the signed-in human and the space, or null;
 *   - `signInLocation(next)`: where to send a visitor who is not signed in (back to `next` after);
 *   - `csrfToken(session, purpose)` / `validCsrf(...)`: a hidden field that proves a form was ours;
 *   - `fromOurOrigin(rt, request)`: a POST sent by a page of this service (or by no browser page).
 * The cookie is HttpOnly, SameSite=Strict, Secure when BASE_URL is https, and expires with the session.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { openSession, readSession, closeSession, type HumanSession } from '../../actors/human-session.js';
import { checkSignInCode, requestSignInCode, SIGN_IN_RULES } from '../../actors/signin-codes.js';
import type { SpaceState } from '../../actors/space.js';
import { asMailboxError, MailboxError } from '../errors.js';
import { idPattern, randomBase62 } from '../ids.js';
import type { Runtime } from '../runtime.js';
import { escapeHtml, maskEmail } from '../texts.js';
import { clientOf, spendAnonymous } from './anonymous.js';
import type { IncomingRequest, Reply } from './io.js';
import { hiddenFields, page, readForm, seeOther, servePage } from './pages.js';
import type { TemplatedApp } from './uws.js';

const SESSION_COOKIE = 'mbx_session';
const DEVICE_COOKIE = 'mbx_device';
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
const localPath = (next: string | null | undefined): string =>
  next && /^\/(?![/\\])[!-[\]-~]*$/.test(next) ? next : '/signin';

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

const secure = (rt: Runtime): string => (rt.config.baseUrl.startsWith('https:') ? '; Secure' : '');

function sessionCookie(rt: Runtime, value: string, maxAgeSeconds: number): string {
  return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure(rt)}`;
}

/** A browser that signed in as an address draws on its own budget of codes there (actors/signin-codes.ts); sent to the sign-in only. */
const deviceCookie = (rt: Runtime, value: string): string =>
  `${DEVICE_COOKIE}=${value}; Path=/signin; HttpOnly; SameSite=Strict; Max-Age=${SIGN_IN_RULES.deviceMs / 1000}${secure(rt)}`;

/** The browser's device cookie, when it is one we could have set. */
const deviceOf = (request: IncomingRequest): string | null => {
  const value = cookieOf(request, DEVICE_COOKIE);
  return value && /^[0-9A-Za-z]{32}$/.test(value) ? value : null;
};

interface Step {
  email: string;
  space: string | null;
  next: string;
}

function stepOf(form: URLSearchParams): Step {
  const space = form.get('space')?.trim() || null;
  if (space && !SPACE_ID.test(space))
    throw new MailboxError(
      'invalid_argument',
      { parameter: 'space' },
      { reason: "ce n'est pas un identifiant d'espace (spc_...)." },
    );
  return { email: (form.get('email') ?? '').trim().toLowerCase(), space, next: localPath(form.get('next')) };
}

const problem = (message: string | null): string => (message ? `<p class="error">${escapeHtml(message)}</p>` : '');

function emailForm(step: Step, options: { status?: number; message?: string | null } = {}): Reply {
  return page(
    options.status ?? 200,
    'Connexion à Mailbox',
    problem(options.message ?? null) +
      `<form method="post" action="/signin">${hiddenFields({ next: step.next, space: step.space })}` +
      `<label>Adresse e-mail de l'humain de l'espace <input type="email" name="email" required autocomplete="email" value="${escapeHtml(step.email)}"></label>` +
      `<button type="submit">Recevoir un code</button></form>` +
      `<p class="note">Un code à 6 chiffres part à cette adresse si c'est celle de l'humain d'un espace.</p>`,
  );
}

/** The page after step 1, the same for any address: the code is asked for the attempt the form carries. */
function codeForm(step: Step, attempt: string, options: { status?: number; message?: string | null } = {}): Reply {
  return page(
    options.status ?? 200,
    'Code de connexion',
    problem(options.message ?? null) +
      `<p>Si <strong>${escapeHtml(maskEmail(step.email) ?? '')}</strong> est l'adresse de l'humain d'un espace, un code à 6 chiffres vient d'y partir ; il est valable 15 minutes, sur cette page.</p>` +
      `<form method="post" action="/signin/code">${hiddenFields({ email: step.email, space: step.space, next: step.next, attempt })}` +
      `<label>Code reçu <input type="text" name="code" required inputmode="numeric" pattern="[0-9]{6}" autocomplete="one-time-code"></label>` +
      `<button type="submit">Me connecter</button></form>` +
      `<form method="post" action="/signin">${hiddenFields({ email: step.email, space: step.space, next: step.next })}<button class="secondary" type="submit">Renvoyer un code</button></form>`,
  );
}

/** Shown only to whoever typed the right code: the spaces its address is the human of. */
function spaceChoice(step: Step, attempt: string, code: string, spaces: { id: string; name: string }[]): Reply {
  const choices = spaces
    .map(
      (space, i) =>
        `<label><input type="radio" name="space" value="${escapeHtml(space.id)}"${i ? '' : ' checked'}> ${escapeHtml(space.name)} (${escapeHtml(space.id)})</label>`,
    )
    .join('');
  return page(
    200,
    "Choisir l'espace",
    `<p>Cette adresse est l'humain de plusieurs espaces : dans lequel vous connecter ?</p>` +
      `<form method="post" action="/signin/code">${hiddenFields({ email: step.email, next: step.next, attempt, code })}${choices}` +
      `<button type="submit">Me connecter</button></form>`,
  );
}

function signedInPage(signedIn: SignedIn): Reply {
  return page(
    200,
    'Vous êtes connecté(e)',
    `<p>Connecté(e) en tant qu'humain de l'espace <strong>${escapeHtml(signedIn.space.name)}</strong> (${escapeHtml(signedIn.space.id)}).</p>` +
      `<form method="post" action="/signout"><button class="secondary" type="submit">Me déconnecter</button></form>`,
  );
}

const foreignForm = (): MailboxError =>
  new MailboxError('forbidden', null, { reason: "Ce formulaire ne vient pas d'une page de ce service." });

/** A refusal of the code rules, shown on the page; anything else goes on as a failure. */
function shownRefusal(error: unknown): MailboxError {
  const refusal = asMailboxError(error);
  if (refusal.code === 'internal' || refusal.code === 'service_unavailable') throw error;
  return refusal;
}

/**
 * Step 1: the address; a code leaves, after the answer, if it is a space's human. The answer is the same
 * either way. A browser without a device cookie gets one: remembered once a code typed in it is right.
 */
async function askCode(rt: Runtime, request: IncomingRequest, step: Step): Promise<Reply> {
  if (!step.email.includes('@')) return emailForm(step, { status: 400, message: 'Indiquez une adresse e-mail.' });
  const device = deviceOf(request);
  try {
    const attempt = await requestSignInCode(rt, {
      email: step.email,
      space: step.space,
      client: clientOf(rt, request),
      device,
    });
    const reply = codeForm(step, attempt);
    return { ...reply, headers: { ...reply.headers, 'set-cookie': deviceCookie(rt, device ?? randomBase62(32)) } };
  } catch (error) {
    const refusal = shownRefusal(error);
    return emailForm(step, { status: refusal.status, message: refusal.message });
  }
}

/** Step 2: the code opens the session and the browser goes back where it was going. */
async function checkCode(rt: Runtime, request: IncomingRequest, step: Step, form: URLSearchParams): Promise<Reply> {
  const attempt = form.get('attempt') ?? '';
  const code = (form.get('code') ?? '').trim();
  // No cookie (refused by the browser): a device nobody will present again.
  const device = deviceOf(request) ?? randomBase62(32);
  try {
    const checked = await checkSignInCode(rt, { email: step.email, attempt, code, space: step.space, device });
    if (checked.kind === 'choose') return spaceChoice(step, attempt, code, checked.spaces);
    const { secret, session } = await openSession(rt, checked.spaceId, step.email);
    const maxAge = Math.floor((session.expiresAt - rt.clock.now()) / 1000);
    return seeOther(step.next, { 'set-cookie': sessionCookie(rt, secret, maxAge) });
  } catch (error) {
    const refusal = shownRefusal(error);
    return codeForm(step, attempt, { status: refusal.status, message: refusal.message });
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
      await spendAnonymous(rt, 'signin', request);
      return askCode(rt, request, stepOf(readForm(body)));
    }),
  );
  app.post('/signin/code', (res, req) =>
    servePage(rt, res, req, FAILURE_TITLE, async (request, body) => {
      if (!fromOurOrigin(rt, request)) throw foreignForm();
      await spendAnonymous(rt, 'signin', request);
      const form = readForm(body);
      return checkCode(rt, request, stepOf(form), form);
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
