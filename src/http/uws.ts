/**
 * The one adapter around the HTTP engine: the subset of the uWebSockets.js API the front end uses, and
 * the engine that provides it. uWS first (the official build, then the npm build, whose binaries load
 * on Node 16-20 only), else `node:http` through src/http/node-engine.ts, so the service runs on any
 * Node. The npm package silently falls back to a slow JS server when its native binding does not load;
 * we load the binding itself so that cannot happen unnoticed.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { HttpEngineChoice } from '../config.js';
import { nodeEngine } from './node-engine.js';

/** Valid until the handler returns: read everything needed synchronously (src/http/io.ts). */
export interface HttpRequest {
  forEach(cb: (key: string, value: string) => void): void;
  getUrl(): string;
  getQuery(): string | undefined;
  getCaseSensitiveMethod(): string;
  getParameter(index: number): string | undefined;
}

export interface HttpResponse {
  onAborted(handler: () => void): HttpResponse;
  /** The body chunk by chunk; the chunk is reused after the call (copy it), `isLast` once. */
  onData(handler: (chunk: ArrayBuffer, isLast: boolean) => void): HttpResponse;
  cork(cb: () => void): HttpResponse;
  /** The whole status line: "200 OK". */
  writeStatus(status: string): HttpResponse;
  writeHeader(key: string, value: string): HttpResponse;
  end(body?: string | Uint8Array, closeConnection?: boolean): HttpResponse;
  /**
   * Sends what the socket takes now of a body of `totalSize` bytes given chunk by chunk (a download):
   * `ok` false when part of the chunk was left (resend it from `getWriteOffset` in `onWritable`),
   * `done` once the whole body is out (the response is then finished).
   */
  tryEnd(chunk: Uint8Array, totalSize: number): [ok: boolean, done: boolean];
  /** Bytes of the body sent so far. */
  getWriteOffset(): number;
  /** Called with the write offset when the socket takes bytes again; answers whether it sent all it had. */
  onWritable(handler: (offset: number) => boolean): HttpResponse;
  /** Cuts the connection at once (a body that broke off after its headers were sent). */
  close(): HttpResponse;
}

export type Handler = (res: HttpResponse, req: HttpRequest) => void;
/** Opaque: only the engine that made it reads it. */
export type us_listen_socket = object;
/** Opaque: handed by the engine to a WebSocket route's `upgrade`, given back to `res.upgrade`. */
export type us_socket_context_t = object;

/** What a WebSocket route's `upgrade` may do with the request: upgrade it, synchronously. */
export interface UpgradeResponse {
  upgrade<UserData>(userData: UserData, secWebSocketKey: string, secWebSocketProtocol: string, secWebSocketExtensions: string, context: us_socket_context_t): void;
}

/** Valid from `open` to `close`; never used after `close`. */
export interface WebSocket<UserData> {
  /** A text message; the answer says nothing we read: backpressure is `getBufferedAmount`. */
  send(message: string): unknown;
  /** Bytes written but not yet taken by the kernel. */
  getBufferedAmount(): number;
  /** Sends a close frame after what is buffered; `close` is called at once. */
  end(code: number, shortMessage: string): void;
  getUserData(): UserData;
}

export interface WebSocketBehavior<UserData> {
  /** Longest message a client may send (bytes); longer closes the socket. */
  maxPayloadLength: number;
  /** Seconds without traffic before the socket is closed; the engine pings before that. */
  idleTimeout: number;
  /** Past this many buffered bytes the engine drops sends: set above what the route itself allows. */
  maxBackpressure: number;
  upgrade(res: UpgradeResponse, req: HttpRequest, context: us_socket_context_t): void;
  open(ws: WebSocket<UserData>): void;
  /** The message is valid until the handler returns: copy it. */
  message(ws: WebSocket<UserData>, message: ArrayBuffer, isBinary: boolean): void;
  /** Some buffered bytes left: check `getBufferedAmount`. */
  drain(ws: WebSocket<UserData>): void;
  close(ws: WebSocket<UserData>, code: number, message: ArrayBuffer): void;
}

export interface TemplatedApp {
  get(pattern: string, handler: Handler): TemplatedApp;
  post(pattern: string, handler: Handler): TemplatedApp;
  del(pattern: string, handler: Handler): TemplatedApp;
  any(pattern: string, handler: Handler): TemplatedApp;
  ws<UserData>(pattern: string, behavior: WebSocketBehavior<UserData>): TemplatedApp;
  listen(host: string, port: number, cb: (socket: us_listen_socket | false) => void): TemplatedApp;
}

export interface HttpEngine {
  /** What the start log names: `uWebSockets.js`, `@trufflesuite/uws-js-unofficial` or `node:http`. */
  name: string;
  App(): TemplatedApp;
  us_socket_local_port(socket: us_listen_socket): number;
  us_listen_socket_close(socket: us_listen_socket): void;
}

/** Where uWS comes from, in the order `auto` tries them; `load` throws when it cannot. */
export interface UwsSource {
  name: string;
  load(): HttpEngine;
}

const require = createRequire(import.meta.url);

const UWS_SOURCES: UwsSource[] = [
  // The official build, installed from its git repository; absent from the npm registry.
  { name: 'uWebSockets.js', load: () => require('uWebSockets.js') as HttpEngine },
  {
    name: '@trufflesuite/uws-js-unofficial',
    load: () => {
      const dir = dirname(require.resolve('@trufflesuite/uws-js-unofficial/package.json'));
      return require(join(dir, 'binaries', `uws_${process.platform}_${process.arch}_${process.versions.modules}.node`)) as HttpEngine;
    },
  },
];

export interface ChosenEngine {
  engine: HttpEngine;
  /** Why uWS was passed over, for the start log; null when uWS runs or `node` was asked for. */
  warning: string | null;
}

/**
 * HTTP_ENGINE: `node` is node:http; `uws` is the first uWS build that loads, and an error naming
 * every failure when none does; `auto` falls back from uWS to node:http with a warning.
 */
export function chooseEngine(choice: HttpEngineChoice, sources: UwsSource[] = UWS_SOURCES): ChosenEngine {
  if (choice === 'node') return { engine: nodeEngine, warning: null };
  const failures: string[] = [];
  for (const source of sources) {
    try {
      // The module as it is, named: bench/webhook-receiver.mjs uses its SSLApp too.
      return { engine: { ...source.load(), name: source.name }, warning: null };
    } catch (error) {
      failures.push(`${source.name}: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  const why = `no uWebSockets.js build loads on Node ${process.version} (${failures.join('; ')})`;
  if (choice === 'uws') throw new Error(`HTTP_ENGINE=uws, but ${why}`);
  return { engine: nodeEngine, warning: `${why}: serving HTTP with node:http, slower; HTTP_ENGINE=node hides this warning` };
}

const REASONS: Record<number, string> = {
  200: 'OK', 202: 'Accepted', 204: 'No Content', 302: 'Found', 303: 'See Other', 400: 'Bad Request', 401: 'Unauthorized', 402: 'Payment Required',
  403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 406: 'Not Acceptable', 409: 'Conflict',
  413: 'Payload Too Large', 415: 'Unsupported Media Type', 422: 'Unprocessable Entity', 429: 'Too Many Requests',
  500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable',
};

/** uWS wants the whole status line: "200 OK". */
export const statusLine = (status: number): string => `${status} ${REASONS[status] ?? 'Status'}`;
