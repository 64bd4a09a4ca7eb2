/**
 * The HTTP front end on the engine of src/http/uws.ts (uWebSockets.js, else node:http): `POST /v1/<tool>`,
 * `/mcp`, `/healthz`, `/v1/openapi.json`, Stripe's webhook `POST /billing/stripe`, the unsubscribe
 * pages `/u/<token>` (src/http/unsubscribe.ts), attachment downloads `/a/<token>` (src/http/downloads.ts),
 * the human's sign-in `/signin` (src/http/signin.ts), OAuth 2.1 for MCP clients (`/.well-known/...`,
 * `/oauth/...`: src/http/oauth/), the standalone workspace `GET /workspace[/...]` (src/http/workspace.ts),
 * `GET /` and `/favicon.ico` (src/http/home.ts),
 * `GET /metrics` (src/metrics.ts) and the realtime socket
 * `GET /v1/events/ws` (src/http/realtime.ts).
 * Stateless: every request authenticates against Redis, so any front end answers any request. Every
 * answer carries X-Request-Id, and, once the key is known, its RateLimit state.
 */
import { timingSafeEqual } from 'node:crypto';
import { signInMailsSent } from '../../actors/signin-codes.js';
import { authenticate, type Access } from '../../actors/space.js';
import { receiveStripeEvent } from './stripe-webhook.js';
import { asMailboxError, logServerError, MailboxError, STORAGE_RETRY_AFTER_SECONDS } from '../errors.js';
import { handleMcp } from './mcp-bridge.js';
import { observeHttpRequest, observeToolCall, readQueueDepthsWith, registry } from '../metrics.js';
import { redisAnswers } from '../redis/connect.js';
import { queueDepths } from '../redis/queues.js';
import type { Runtime } from '../runtime.js';
import { callTool } from '../tools/dispatch.js';
import { toolByName } from '../tools/index.js';
import {
  bearerOf,
  bodyLimit,
  errorReply,
  jsonReply,
  parseJson,
  rateLimitHeaders,
  readBody,
  readRequest,
  send,
  withIdempotencyHeader,
  type IncomingRequest,
  type Reply,
} from './io.js';
import { openApiDocument } from './openapi.js';
import { createRealtime, REALTIME_PATH } from './realtime.js';
import { registerUnsubscribe } from './unsubscribe.js';
import { viewSessionAccess, workspacePage } from './workspace.js';
import { faviconReply, homeReply } from './home.js';
import { signInRoutes } from './signin.js';
import { resourceOf } from './oauth/grants.js';
import { oauthRoutes, resourceMetadataUrl } from './oauth/routes.js';
import { registerDownloads } from './downloads.js';
import { chooseEngine } from './engine.js';
import type { HttpRequest, HttpResponse, us_listen_socket } from './uws.js';

export interface HttpServer {
  port: number;
  /** Stops listening, then waits (at most `graceMs`) for the requests in flight. */
  close(graceMs?: number): Promise<void>;
}

/** The scraper's bearer against METRICS_TOKEN, in constant time; no token set: open. */
function mayScrape(token: string | null, bearer: string | null): boolean {
  if (token === null) return true;
  const given = Buffer.from(bearer ?? '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function startHttp(rt: Runtime, options: { port: number; host: string }): Promise<HttpServer> {
  const { engine, warning } = chooseEngine(rt.config.httpEngine);
  if (warning) rt.log.warn(warning);
  rt.log.info('http engine', { engine: engine.name, node: process.version });
  const app = engine.App();
  let inFlight = 0;
  const openapi = JSON.stringify(openApiDocument(rt.config.baseUrl));
  const stopQueueDepths = readQueueDepthsWith(() => queueDepths(rt));

  /**
   * Reads, authenticates and answers; every failure becomes the error body of the table. `route` is the
   * pattern the metrics name; `tool` (a registry name or `unknown`) counts the request as a tool call.
   */
  const handle = (
    route: string,
    res: HttpResponse,
    req: HttpRequest,
    work: (request: IncomingRequest, body: Buffer) => Promise<Reply>,
    tool?: string,
    maxBytes = rt.config.maxBodyBytes,
  ) => {
    const request = readRequest(res, req);
    const started = performance.now();
    let code = 'ok';
    inFlight++;
    void readBody(res, maxBytes)
      .then((body) => work(request, body))
      .catch((error: unknown) => {
        const refusal = asMailboxError(error);
        code = refusal.code;
        logServerError(rt.log, refusal, error, { request_id: request.id, url: request.url });
        return errorReply(refusal);
      })
      .then((reply) => {
        inFlight--;
        send(res, request, reply);
        observeHttpRequest(route, reply.status, started);
        if (tool) observeToolCall('http', tool, code, started);
        rt.log.debug('request', {
          request_id: request.id,
          method: request.method,
          url: request.url,
          status: reply.status,
          ms: +(performance.now() - started).toFixed(2),
        });
      });
  };

  /**
   * The caller's access; its budget (or its lack of one) goes on whatever the request answers. OAuth
   * access tokens are accepted only where `resource` says (`/mcp`, the resource they are issued for).
   */
  const authenticated = async (
    request: IncomingRequest,
    resource: string | null = null,
    calls = 1,
  ): Promise<Access> => {
    try {
      const access = await authenticate(rt, bearerOf(request.headers), resource, calls);
      Object.assign(request.answerHeaders, rateLimitHeaders(access.rate, rt.config.rateLimit));
      return access;
    } catch (error) {
      const refusal = asMailboxError(error);
      if (refusal.code === 'rate_limited') {
        Object.assign(
          request.answerHeaders,
          rateLimitHeaders({ remaining: 0, fullInSeconds: refusal.retryAfterSeconds ?? 1 }, rt.config.rateLimit),
        );
      }
      throw error;
    }
  };

  app.post('/v1/:tool', (res, req) => {
    const tool = req.getParameter(0) ?? '';
    const work = async (request: IncomingRequest, body: Buffer) => {
      const human = bearerOf(request.headers) ? null : await viewSessionAccess(rt, request);
      const access = human ?? (await authenticated(request));
      const input = withIdempotencyHeader(parseJson(body), request.headers['idempotency-key'], toolByName.get(tool));
      const { output } = await callTool(rt, access, tool, input);
      return jsonReply(200, output);
    };
    // An unknown name is no label: anyone could make up new ones.
    handle(
      '/v1/:tool',
      res,
      req,
      work,
      toolByName.has(tool) ? tool : 'unknown',
      bodyLimit(rt.config, toolByName.get(tool)),
    );
  });

  /**
   * `/mcp`'s caller: a key, or an OAuth access token issued for `/mcp`. Refused with the challenge that
   * starts an MCP client's OAuth discovery (RFC 9728 5.1; `invalid_token` when a bearer was presented).
   */
  const mcpCall =
    (work: (request: IncomingRequest, body: Buffer, access: Access) => Promise<Reply>) =>
    async (request: IncomingRequest, body: Buffer) => {
      let access: Access;
      try {
        access = await authenticated(request, resourceOf(rt));
      } catch (error) {
        const refusal = asMailboxError(error);
        if (refusal.code !== 'unauthorized') throw error;
        const reply = errorReply(refusal);
        const invalid = bearerOf(request.headers) ? ', error="invalid_token"' : '';
        return {
          ...reply,
          headers: {
            ...reply.headers,
            'www-authenticate': `Bearer resource_metadata="${resourceMetadataUrl(rt)}"${invalid}`,
          },
        };
      }
      return work(request, body, access);
    };

  /**
   * A JSON-RPC batch (MCP 2025-03-26; later versions dropped batches, the SDK's transport still takes
   * them) spends one request of the budget per message: authentication took the first, the rest are
   * taken together before any runs, or the batch is refused whole.
   */
  const mcpPost = async (request: IncomingRequest, body: Buffer, access: Access): Promise<Reply> => {
    const message = parseJson(body);
    const calls = Array.isArray(message) ? message.length : 1;
    const { burst } = rt.config.rateLimit;
    if (calls > burst) {
      throw new MailboxError('invalid_argument', null, {
        reason: `un lot JSON-RPC de ${calls} messages dépasse le budget d'une requête (${burst}) : envoyez-les en plusieurs fois.`,
      });
    }
    const charged = calls > 1 ? await authenticated(request, resourceOf(rt), calls - 1) : access;
    return handleMcp(rt, request, message, charged);
  };
  app.post('/mcp', (res, req) => handle('/mcp', res, req, mcpCall(mcpPost), undefined, bodyLimit(rt.config, 'mcp')));
  // Stateless Streamable HTTP: no session, so no server-initiated stream (GET) and nothing to end (DELETE).
  const noStream = (res: HttpResponse, req: HttpRequest) =>
    handle(
      '/mcp',
      res,
      req,
      mcpCall(async () =>
        jsonReply(
          405,
          { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null },
          { allow: 'POST' },
        ),
      ),
    );
  app.get('/mcp', noStream).del('/mcp', noStream);

  app.get('/metrics', (res, req) => {
    handle('/metrics', res, req, async (request) => {
      if (!mayScrape(rt.config.metricsToken, bearerOf(request.headers))) throw new MailboxError('unauthorized');
      return { status: 200, body: await registry.metrics(), headers: { 'content-type': registry.contentType } };
    });
  });

  app.get('/healthz', (res, req) => {
    handle('/healthz', res, req, async () => {
      if (await redisAnswers(rt.redis)) return jsonReply(200, { status: 'ok' });
      return jsonReply(503, { status: 'redis_unavailable' }, { 'retry-after': String(STORAGE_RETRY_AFTER_SECONDS) });
    });
  });

  app.get('/v1/openapi.json', (res, req) => {
    handle('/v1/openapi.json', res, req, async () => ({
      status: 200,
      body: openapi,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    }));
  });

  // Stripe's webhook: signed by Stripe, not by a key of ours (src/http/stripe-webhook.ts).
  app.post('/billing/stripe', (res, req) =>
    handle('/billing/stripe', res, req, async (request, body) =>
      jsonReply(200, await receiveStripeEvent(rt, request.headers['stripe-signature'], body)),
    ),
  );

  registerUnsubscribe(app, rt);
  registerDownloads(app, rt);

  // Every address of the view is the same document: the view reads its page from the address (docs/contract.md, Decision 16).
  app.get('/workspace', (res, req) => handle('/workspace', res, req, async () => workspacePage(rt)));
  app.get('/workspace/*', (res, req) => handle('/workspace', res, req, async () => workspacePage(rt)));
  app.get('/', (res, req) => handle('/', res, req, async (request) => homeReply(rt, request)));
  app.get('/favicon.ico', (res, req) => handle('/favicon.ico', res, req, async () => faviconReply()));
  signInRoutes(app, rt);
  oauthRoutes(app, rt);

  const realtime = createRealtime(rt);
  app.ws(REALTIME_PATH, realtime.behavior);

  app.any('/*', (res, req) => {
    handle('other', res, req, async (request) => {
      throw new MailboxError('not_found', null, { reason: `Aucune ressource ${request.method} ${request.url}.` });
    });
  });

  return new Promise((resolve, reject) => {
    app.listen(options.host, options.port, (socket: us_listen_socket | false) => {
      if (!socket) return reject(new Error(`cannot listen on ${options.host}:${options.port}`));
      resolve({
        port: engine.us_socket_local_port(socket),
        async close(graceMs = 10_000) {
          engine.us_listen_socket_close(socket);
          realtime.close();
          stopQueueDepths();
          const deadline = Date.now() + graceMs;
          while (inFlight > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
          // Sign-in codes leave after their page's answer: let those under way go out too.
          const timer = new Promise((r) => setTimeout(r, Math.max(0, deadline - Date.now())).unref());
          await Promise.race([signInMailsSent(), timer]);
        },
      });
    });
  });
}
