/**
 * The OAuth 2.1 authorization server and the resource's metadata, on the same front end (docs/contract.md,
 * Decision 13; MCP authorization 2025-06-18 and 2025-11-25): RFC 9728 Protected Resource Metadata at both
 * well-known paths, RFC 8414 metadata, RFC 7591 registration, the consent page, the token endpoint and
 * RFC 7009 revocation under `/oauth/`. Stateless like the rest: everything lives in Redis.
 */
import type { AnonymousEndpoint } from '../../config.js';
import { asMailboxError } from '../../errors.js';
import { PERMISSIONS } from '../../record-schemas.js';
import type { Runtime } from '../../runtime.js';
import { spendAnonymous } from '../anonymous.js';
import { jsonReply, readBody, readRequest, send, type IncomingRequest, type Reply } from '../io.js';
import { servePage } from '../pages.js';
import type { HttpRequest, HttpResponse, TemplatedApp } from '../uws.js';
import { registerEndpoint } from './clients.js';
import { authorizeDecision, authorizePage } from './consent.js';
import { oauthServer, resourceOf, revokeEndpoint, tokenEndpoint } from './grants.js';
import { OAuthRefusal, refusalReply } from './refusal.js';

/** Client metadata, a token request: small. */
const MAX_BODY_BYTES = 16 * 1024;
/** Read by browser-based clients too (the MCP Inspector's web UI runs the flow from the page). */
const OPEN = { 'access-control-allow-origin': '*' };
/** A browser's preflight before a JSON POST or a GET with the MCP-Protocol-Version header; other methods are 405. */
const PREFLIGHT = {
  ...OPEN,
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'content-type, authorization, mcp-protocol-version',
  'access-control-max-age': '86400',
};

/** Where a client learns that `/mcp` is protected, and by whom (RFC 9728). */
export const resourceMetadataUrl = (rt: Runtime): string =>
  `${rt.config.baseUrl}/.well-known/oauth-protected-resource/mcp`;

const protectedResource = (rt: Runtime) => ({
  resource: resourceOf(rt),
  authorization_servers: [rt.config.baseUrl],
  scopes_supported: [...PERMISSIONS],
  bearer_methods_supported: ['header'],
  resource_name: 'Mailbox',
  resource_documentation: `${rt.config.baseUrl}/v1/openapi.json`,
});

const authorizationServer = (rt: Runtime) => ({
  issuer: rt.config.baseUrl,
  authorization_endpoint: `${rt.config.baseUrl}/oauth/authorize`,
  token_endpoint: `${rt.config.baseUrl}/oauth/token`,
  registration_endpoint: `${rt.config.baseUrl}/oauth/register`,
  revocation_endpoint: `${rt.config.baseUrl}/oauth/revoke`,
  scopes_supported: [...PERMISSIONS],
  response_types_supported: ['code'],
  response_modes_supported: ['query'],
  grant_types_supported: ['authorization_code', 'refresh_token'],
  code_challenge_methods_supported: ['S256'],
  token_endpoint_auth_methods_supported: ['none'],
  revocation_endpoint_auth_methods_supported: ['none'],
  client_id_metadata_document_supported: true,
});

/**
 * The JSON endpoints' runner: RFC error bodies, never the API's. `endpoint`: the anonymous budget the
 * request spends first (src/http/anonymous.ts); past it, 429 `temporarily_unavailable` with Retry-After.
 */
function serveJson(
  rt: Runtime,
  res: HttpResponse,
  req: HttpRequest,
  endpoint: AnonymousEndpoint | null,
  work: (request: IncomingRequest, body: Buffer) => Promise<Reply>,
): void {
  const request = readRequest(res, req);
  void readBody(res, MAX_BODY_BYTES)
    .then(async (body) => {
      if (endpoint) await spendAnonymous(rt, endpoint, request);
      return work(request, body);
    })
    .catch((error: unknown) => {
      if (error instanceof OAuthRefusal) return refusalReply(error);
      const refusal = asMailboxError(error);
      if (refusal.code === 'internal')
        rt.log.error('oauth endpoint failed', { url: request.url, error: String((error as Error)?.stack ?? error) });
      if (refusal.code === 'anonymous_rate_limited') {
        const reply = refusalReply(new OAuthRefusal('temporarily_unavailable', refusal.message, refusal.status));
        return { ...reply, headers: { ...reply.headers, 'retry-after': String(refusal.retryAfterSeconds ?? 60) } };
      }
      const code = refusal.code === 'payload_too_large' ? 'invalid_request' : 'server_error';
      return {
        ...refusalReply(new OAuthRefusal(code, refusal.message, refusal.status)),
        close: refusal.code === 'payload_too_large',
      };
    })
    .then((reply) => send(res, request, { ...reply, headers: { ...reply.headers, ...OPEN } }));
}

const CROSS_ORIGIN_PATHS = [
  '/.well-known/oauth-protected-resource',
  '/.well-known/oauth-protected-resource/mcp',
  '/.well-known/oauth-authorization-server',
  '/oauth/register',
  '/oauth/token',
  '/oauth/revoke',
];

export function oauthRoutes(app: TemplatedApp, rt: Runtime): void {
  const server = oauthServer(rt);
  // Registered first as `any`: each path's GET or POST below takes precedence (a method's route before `any`'s).
  for (const path of CROSS_ORIGIN_PATHS) {
    app.any(path, (res, req) => {
      const request = readRequest(res, req);
      const preflight = request.method === 'OPTIONS';
      send(res, request, {
        status: preflight ? 204 : 405,
        body: '',
        headers: preflight ? PREFLIGHT : { ...OPEN, allow: 'GET, POST, OPTIONS' },
      });
    });
  }
  const metadata = (document: (rt: Runtime) => unknown) => (res: HttpResponse, req: HttpRequest) =>
    serveJson(rt, res, req, null, async () => jsonReply(200, document(rt), { 'cache-control': 'max-age=3600' }));
  app.get('/.well-known/oauth-protected-resource', metadata(protectedResource));
  app.get('/.well-known/oauth-protected-resource/mcp', metadata(protectedResource));
  app.get('/.well-known/oauth-authorization-server', metadata(authorizationServer));
  app.post('/oauth/register', (res, req) =>
    serveJson(rt, res, req, 'register', (_request, body) => registerEndpoint(rt, body)),
  );
  app.post('/oauth/token', (res, req) =>
    serveJson(rt, res, req, 'token', (request, body) => tokenEndpoint(rt, server, request, body)),
  );
  app.post('/oauth/revoke', (res, req) =>
    serveJson(rt, res, req, 'token', (_request, body) => revokeEndpoint(rt, body)),
  );
  app.get('/oauth/authorize', (res, req) =>
    servePage(rt, res, req, 'Autorisation impossible', async (request) => {
      await spendAnonymous(rt, 'authorize', request);
      return authorizePage(rt, request);
    }),
  );
  app.post('/oauth/authorize', (res, req) =>
    servePage(rt, res, req, 'Autorisation impossible', async (request, body) => {
      await spendAnonymous(rt, 'authorize', request);
      return authorizeDecision(rt, server, request, body);
    }),
  );
}
