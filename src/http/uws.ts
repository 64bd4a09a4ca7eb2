/**
 * The one adapter around uWebSockets.js. The package silently falls back to a slow JS server when its
 * native binding does not load; we load the binding itself so that cannot happen unnoticed.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type * as Uws from '@trufflesuite/uws-js-unofficial';

export type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket } from '@trufflesuite/uws-js-unofficial';

const require = createRequire(import.meta.url);

function loadNative(): typeof Uws {
  const dir = dirname(require.resolve('@trufflesuite/uws-js-unofficial/package.json'));
  const binary = join(dir, 'binaries', `uws_${process.platform}_${process.arch}_${process.versions.modules}.node`);
  try {
    return require(binary) as typeof Uws;
  } catch (error) {
    throw new Error(`uWebSockets.js native binding did not load (${binary}): ${(error as Error).message}`);
  }
}

export const uws = loadNative();

const REASONS: Record<number, string> = {
  200: 'OK', 202: 'Accepted', 204: 'No Content', 400: 'Bad Request', 401: 'Unauthorized', 402: 'Payment Required',
  403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 406: 'Not Acceptable', 409: 'Conflict',
  413: 'Payload Too Large', 415: 'Unsupported Media Type', 422: 'Unprocessable Entity', 429: 'Too Many Requests',
  500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable',
};

/** uWS wants the whole status line: "200 OK". */
export const statusLine = (status: number): string => `${status} ${REASONS[status] ?? 'Status'}`;
