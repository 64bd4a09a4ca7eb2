/**
 * The HTTP front end on the engine of src/http/uws.ts (uWebSockets.js, else node:http): `POST /v1/<tool>`,
 * `/mcp`, `/healthz`, `/v1/openapi.json`, Stripe's webhook `POST /billing/stripe`, and the unsubscribe
 * pages `/u/<token>` (src/http/unsubscribe.ts).
 * Stateless: every request authenticates against Redis, so any front end answers any request.
 */
import { authenticate } from '../../actors/space.js';
import { receiveStripeEvent } from './stripe-webhook.js';
import { asMailboxError, MailboxError } from '../errors.js';
import { handleMcp } from './mcp-bridge.js';
import { redisAnswers } from '../redis/connect.js';
import type { Runtime } from '../runtime.js';
import { callTool } from '../tools/dispatch.js';
import { toolByName } from '../tools/index.js';
import { bearerOf, errorReply, jsonReply, parseJson, readBody, readRequest, send, withIdempotencyHeader, type IncomingRequest, type Reply } from './io.js';
import { openApiDocument } from './openapi.js';
import { registerUnsubscribe } from './unsubscribe.js';
import { chooseEngine, type HttpRequest, type HttpResponse, type us_listen_socket } from './uws.js';

export interface HttpServer {
  port: number;
  /** Stops listening, then waits (at most `graceMs`) for the requests in flight. */
  close(graceMs?: number): Promise<void>;
}

export function startHttp(rt: Runtime, options: { port: number; host: string }): Promise<HttpServer> {
  const { engine, warning } = chooseEngine(rt.config.httpEngine);
  if (warning) rt.log.warn(warning);
  rt.log.info('http engine', { engine: engine.name, node: process.version });
  const app = engine.App();
  let inFlight = 0;
  const openapi = JSON.stringify(openApiDocument(rt.config.baseUrl));

  /** Reads, authenticates and answers; every failure becomes the error body of the table. */
  const handle = (res: HttpResponse, req: HttpRequest, work: (request: IncomingRequest, body: Buffer) => Promise<Reply>) => {
    const request = readRequest(res, req);
    const started = performance.now();
    inFlight++;
    readBody(res, rt.config.maxBodyBytes)
      .then((body) => work(request, body))
      .catch((error: unknown) => {
        const refusal = asMailboxError(error);
        if (refusal.code === 'internal') rt.log.error('request failed', { url: request.url, error: String((error as Error)?.stack ?? error) });
        return errorReply(refusal);
      })
      .then((reply) => {
        inFlight--;
        send(res, request, reply);
        rt.log.debug('request', { method: request.method, url: request.url, status: reply.status, ms: +(performance.now() - started).toFixed(2) });
      });
  };

  app.post('/v1/:tool', (res, req) => {
    const tool = req.getParameter(0) ?? '';
    handle(res, req, async (request, body) => {
      const access = await authenticate(rt, bearerOf(request.headers));
      const input = withIdempotencyHeader(parseJson(body), request.headers['idempotency-key'], toolByName.get(tool));
      const { output } = await callTool(rt, access, tool, input);
      return jsonReply(200, output);
    });
  });

  app.post('/mcp', (res, req) =>
    handle(res, req, async (request, body) => {
      const access = await authenticate(rt, bearerOf(request.headers));
      return handleMcp(rt, request, body, access);
    }),
  );
  // Stateless Streamable HTTP: no session, so no server-initiated stream (GET) and nothing to end (DELETE).
  const noStream = (res: HttpResponse, req: HttpRequest) =>
    handle(res, req, async (request) => {
      await authenticate(rt, bearerOf(request.headers));
      return jsonReply(405, { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null }, { allow: 'POST' });
    });
  app.get('/mcp', noStream).del('/mcp', noStream);

  app.get('/healthz', (res, req) => {
    handle(res, req, async () => {
      if (await redisAnswers(rt.redis)) return jsonReply(200, { status: 'ok' });
      return jsonReply(503, { status: 'redis_unavailable' }, { 'retry-after': '5' });
    });
  });

  app.get('/v1/openapi.json', (res, req) => {
    handle(res, req, async () => ({ status: 200, body: openapi, headers: { 'content-type': 'application/json; charset=utf-8' } }));
  });

  // Stripe's webhook: signed by Stripe, not by a key of ours (src/http/stripe-webhook.ts).
  app.post('/billing/stripe', (res, req) =>
    handle(res, req, async (request, body) => jsonReply(200, await receiveStripeEvent(rt, request.headers['stripe-signature'], body))),
  );

  registerUnsubscribe(app, rt);

  app.any('/*', (res, req) => {
    handle(res, req, async (request) => {
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
          for (const deadline = Date.now() + graceMs; inFlight > 0 && Date.now() < deadline; ) {
            await new Promise((r) => setTimeout(r, 20));
          }
        },
      });
    });
  });
}
