/**
 * The one adapter around the HTTP engine: the subset of the uWebSockets.js API the front end uses.
 * src/http/engine.ts chooses who provides it: uWS first (the official build, then the npm build, whose
 * binaries load on Node 16-20 only), else `node:http` through src/http/node-engine.ts, so the service
 * runs on any Node. The npm package silently falls back to a slow JS server when its native binding does not load;
 * we load the binding itself so that cannot happen unnoticed.
 */

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
  /** The peer's address as text (uWS writes IPv4 on a dual-stack socket as an IPv4-mapped IPv6 address, every group in full). */
  getRemoteAddressAsText(): ArrayBuffer;
}

export type Handler = (res: HttpResponse, req: HttpRequest) => void;
/** Opaque: only the engine that made it reads it. */
export type us_listen_socket = object;
/** Opaque: handed by the engine to a WebSocket route's `upgrade`, given back to `res.upgrade`. */
export type us_socket_context_t = object;

/** What a WebSocket route's `upgrade` may do with the request: upgrade it, synchronously. */
export interface UpgradeResponse {
  upgrade<UserData>(
    userData: UserData,
    secWebSocketKey: string,
    secWebSocketProtocol: string,
    secWebSocketExtensions: string,
    context: us_socket_context_t,
  ): void;
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

const REASONS: Record<number, string> = {
  200: 'OK',
  202: 'Accepted',
  204: 'No Content',
  302: 'Found',
  303: 'See Other',
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

/** uWS wants the whole status line: "200 OK". */
export const statusLine = (status: number): string => `${status} ${REASONS[status] ?? 'Status'}`;
