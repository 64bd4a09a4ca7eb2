/**
 * The service's few pages for people (unsubscribe, sign-in, consent): plain French HTML, no script,
 * never framed, never cached, their failures as pages rather than the API's JSON body.
 */
import { asMailboxError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import { escapeHtml } from '../texts.js';
import { readBody, readRequest, send, type IncomingRequest, type Reply } from './io.js';
import type { HttpRequest, HttpResponse } from './uws.js';

/** A form of ours or a provider's one-click body: a few bytes. */
const MAX_FORM_BYTES = 8192;

/** `formAction`: where the page's forms may post, and so where their answers may redirect (browsers check both). */
const headersOf = (formAction: string): Record<string, string> => ({
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  // Tokens and codes travel in these URLs: no other site learns them from a Referer. Not no-referrer:
  // under it a browser sends `Origin: null` with the page's own form posts, which fromOurOrigin refuses.
  'referrer-policy': 'same-origin',
  'x-robots-tag': 'noindex',
  'x-frame-options': 'DENY',
  'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; form-action ${formAction}; frame-ancestors 'none'`,
});

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#222;line-height:1.5}' +
  'button{font:inherit;padding:.6rem 1.2rem;border:0;border-radius:.4rem;background:#1d4ed8;color:#fff;cursor:pointer}' +
  'button.secondary{background:#e5e7eb;color:#222}input[type=email],input[type=text]{font:inherit;padding:.4rem;width:100%;box-sizing:border-box}' +
  'label{display:block;margin:.6rem 0}.note{color:#555;font-size:.9rem}.error{color:#b91c1c}';

/** `body` is trusted HTML of ours; every value from outside goes through escapeHtml first. */
export function page(
  status: number,
  title: string,
  body: string,
  options: { formAction?: string; headers?: Record<string, string> } = {},
): Reply {
  const html =
    `<!doctype html><html lang="fr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
  return { status, body: html, headers: { ...headersOf(options.formAction ?? "'self'"), ...options.headers } };
}

/** A redirect after a form (303: the browser follows with a GET). */
export const seeOther = (location: string, headers: Record<string, string> = {}): Reply => ({
  status: 303,
  body: '',
  headers: { location, 'cache-control': 'no-store', ...headers },
});

/** Hidden fields carrying values from one step of a form to the next. */
export const hiddenFields = (fields: Record<string, string | null | undefined>): string =>
  Object.entries(fields)
    .filter(([, value]) => value)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value!)}">`)
    .join('');

/** A form body (application/x-www-form-urlencoded), every field a string. */
export const readForm = (body: Buffer): URLSearchParams => new URLSearchParams(body.toString('utf8'));

/**
 * Serves one page request: reads the request and its (small) body, runs `work`, and turns any failure
 * into a French page titled `failureTitle`. Its own runner rather than the API's: URLs here may hold
 * tokens the API's request log would write, and answers are pages.
 */
export function servePage(
  rt: Runtime,
  res: HttpResponse,
  req: HttpRequest,
  failureTitle: string,
  work: (request: IncomingRequest, body: Buffer) => Promise<Reply>,
): void {
  const request = readRequest(res, req);
  void readBody(res, MAX_FORM_BYTES)
    .then((body) => work(request, body))
    .catch((error: unknown) => {
      const refusal = asMailboxError(error);
      if (refusal.code === 'internal')
        rt.log.error('page failed', {
          title: failureTitle,
          method: request.method,
          error: String((error as Error)?.stack ?? error),
        });
      const wait: Record<string, string> =
        refusal.retryAfterSeconds === undefined ? {} : { 'retry-after': String(refusal.retryAfterSeconds) };
      return {
        ...page(refusal.status, failureTitle, `<p>${escapeHtml(refusal.message)}</p>`, { headers: wait }),
        close: refusal.code === 'payload_too_large',
      };
    })
    .then((reply) => send(res, request, reply));
}
