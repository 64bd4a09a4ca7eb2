/**
 * The service's root (docs/contract.md, Decision 16): `GET /` sends a browser (one that accepts text/html) to the
 * workspace and answers any other client a small JSON index of where things are; `GET /favicon.ico`
 * answers the icon a browser asks for on every page it opens.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../paths.js';
import type { Runtime } from '../runtime.js';
import { VERSION } from '../version.js';
import { jsonReply, type IncomingRequest, type Reply } from './io.js';

/** A browser's navigation asks for text/html by name; an API client sends `*\/*`, JSON or nothing. */
const wantsPage = (accept: string | undefined): boolean => /(^|,)\s*text\/html\s*(;|,|$)/i.test(accept ?? '');

export function homeReply(rt: Runtime, request: IncomingRequest): Reply {
  const vary = { vary: 'Accept', 'cache-control': 'no-store' };
  if (wantsPage(request.headers.accept)) return { status: 302, body: '', headers: { location: '/workspace', ...vary } };
  const base = rt.config.baseUrl;
  return jsonReply(
    200,
    {
      name: 'Mailbox',
      version: VERSION,
      mcp: `${base}/mcp`,
      openapi: `${base}/v1/openapi.json`,
      workspace: `${base}/workspace`,
    },
    vary,
  );
}

/** An envelope in the workspace's colour (web/workspace/icon.svg, the view's own icon too): browsers take SVG whatever the path. */
const FAVICON_SVG = readFileSync(join(ROOT, 'web', 'workspace', 'icon.svg'));

export const faviconReply = (): Reply => ({
  status: 200,
  body: FAVICON_SVG,
  headers: {
    'content-type': 'image/svg+xml',
    'cache-control': 'public, max-age=86400',
    'x-content-type-options': 'nosniff',
  },
});
