/**
 * The human's sign-in over real HTTP, as a browser does it: the address, the code read from the
 * outbox (as the human reads it), and the session cookie the service sets.
 */
import { lastCode } from './codes.js';
import type { TestService } from './service.js';

export interface PagePost {
  status: number;
  location: string | null;
  setCookie: string | null;
  headers: Headers;
  text: string;
}

/** POSTs a form to a page of the service, following no redirect. */
export async function postForm(
  svc: TestService,
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<PagePost> {
  const response = await fetch(`${svc.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
  return {
    status: response.status,
    location: response.headers.get('location'),
    setCookie: response.headers.get('set-cookie'),
    headers: response.headers,
    text: await response.text(),
  };
}

/** The `name=value` part of a Set-Cookie header, to send back as a Cookie header. */
export const cookiePair = (setCookie: string | null): string => (setCookie ?? '').split(';')[0]!;

/** The hidden field `name` of a page's form. */
export const fieldOf = (html: string, name: string): string =>
  new RegExp(`<input type="hidden" name="${name}" value="([^"]*)">`).exec(html)?.[1] ?? '';

/**
 * Signs `email` in (into `space` when it is the human of several) and returns the Cookie header to send.
 * The browser's device cookie, set at the first step, goes with the second, as a browser sends it.
 */
export async function signIn(svc: TestService, email: string, space?: string): Promise<string> {
  const step = { email, ...(space ? { space } : {}) };
  const asked = await postForm(svc, '/signin', step);
  if (asked.status !== 200) throw new Error(`sign-in refused: ${asked.status} ${asked.text}`);
  const code = await lastCode(svc, email);
  const done = await postForm(
    svc,
    '/signin/code',
    { ...step, attempt: fieldOf(asked.text, 'attempt'), code: code ?? '' },
    { cookie: cookiePair(asked.setCookie) },
  );
  if (done.status !== 303) throw new Error(`sign-in code refused: ${done.status} ${done.text}`);
  return cookiePair(done.setCookie);
}
