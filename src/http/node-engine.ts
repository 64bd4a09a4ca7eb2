/**
 * node:http behind the uWS API subset of src/http/uws.ts, for the Node versions no uWS build loads on.
 * As uWS does: routes `:param` and `/*` (a static segment before a parameter before a wildcard, a
 * method's route before `any`), bodies chunk by chunk to `onData` with one empty last chunk, `onAborted`
 * when the client goes before the answer, `end(body, true)` answering `Connection: close` and closing,
 * `tryEnd` and `onWritable` over `write` and 'drain'.
 * WebSocket routes run on the `ws` package's server, behind the same behaviour (open, message, drain,
 * close); a sweep every half `idleTimeout` pings each socket and ends those that did not answer the last one.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type WebSocket as WsSocket } from 'ws';
import type {
  Handler,
  HttpEngine,
  HttpRequest,
  HttpResponse,
  TemplatedApp,
  us_listen_socket,
  WebSocket,
  WebSocketBehavior,
} from './uws.js';

interface Route {
  method: string | null;
  segments: string[];
  handler: Handler;
}

/** Lower sorts first: wildcards last, then by parameter count, a method's route before `any`'s. */
const rank = (route: Route): number =>
  (route.segments.includes('*') ? 1000 : 0) +
  route.segments.filter((s) => s.startsWith(':')).length * 2 +
  (route.method ? 0 : 1);

/** The parameters of a matching path, in pattern order; null when the path does not match. */
function match(segments: string[], parts: string[]): string[] | null {
  const params: string[] = [];
  for (const [i, segment] of segments.entries()) {
    if (segment === '*') return params;
    const part = parts[i];
    if (part === undefined) return null;
    if (segment.startsWith(':')) params.push(part);
    else if (segment !== part) return null;
  }
  return parts.length === segments.length ? params : null;
}

function request(req: IncomingMessage, path: string, query: string | undefined, params: string[]): HttpRequest {
  return {
    // rawHeaders keeps every repeated header; `req.headers` drops a second Authorization.
    forEach(cb) {
      for (let i = 0; i < req.rawHeaders.length; i += 2) cb(req.rawHeaders[i]!.toLowerCase(), req.rawHeaders[i + 1]!);
    },
    getUrl: () => path,
    getQuery: () => query,
    getCaseSensitiveMethod: () => req.method ?? '',
    getParameter: (index) => params[index],
  };
}

function response(req: IncomingMessage, res: ServerResponse): HttpResponse {
  // node:http takes every chunk written (buffering it), and says when to wait for 'drain' instead.
  let written = 0;
  let writable: ((offset: number) => boolean) | null = null;
  const self: HttpResponse = {
    onAborted(handler) {
      res.on('close', () => {
        if (!res.writableEnded) handler();
      });
      return self;
    },
    onData(handler) {
      req.on('data', (chunk: Buffer) =>
        handler(chunk.buffer.slice(chunk.byteOffset, chunk.byteOffset + chunk.byteLength) as ArrayBuffer, false),
      );
      req.on('end', () => handler(new ArrayBuffer(0), true));
      return self;
    },
    cork(cb) {
      cb();
      return self;
    },
    writeStatus(status) {
      const space = status.indexOf(' ');
      res.statusCode = Number(status.slice(0, space));
      res.statusMessage = status.slice(space + 1);
      return self;
    },
    writeHeader(key, value) {
      res.appendHeader(key, value);
      return self;
    },
    end(body, closeConnection = false) {
      // Node then closes the socket once the answer is out, leaving the rest of a refused body unread.
      if (closeConnection) res.setHeader('connection', 'close');
      res.end(body);
      return self;
    },
    tryEnd(chunk, totalSize) {
      if (!res.headersSent) res.setHeader('content-length', totalSize);
      written += chunk.byteLength;
      const ok = chunk.byteLength ? res.write(chunk) : !res.writableNeedDrain;
      const done = written >= totalSize;
      if (done) res.end();
      return [ok, done];
    },
    getWriteOffset: () => written,
    onWritable(handler) {
      if (!writable) res.on('drain', () => writable?.(written));
      writable = handler;
      return self;
    },
    close() {
      res.destroy();
      return self;
    },
    getRemoteAddressAsText: () => asArrayBuffer(Buffer.from(req.socket.remoteAddress ?? '')),
  };
  return self;
}

interface SocketRoute {
  segments: string[];
  behavior: WebSocketBehavior<unknown>;
  server: WebSocketServer;
}

const asArrayBuffer = (data: Buffer): ArrayBuffer =>
  data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer;

/** Sockets that have not answered since the last sweep's ping. */
const silent = new WeakSet<WsSocket>();

/** A `ws` socket as the behaviour sees a uWS one; `drain` once a send leaves nothing buffered. */
function open<UserData>(ws: WsSocket, userData: UserData, behavior: WebSocketBehavior<UserData>): void {
  const socket: WebSocket<UserData> = {
    send(message) {
      ws.send(message, () => {
        if (ws.bufferedAmount === 0) behavior.drain(socket);
      });
    },
    getBufferedAmount: () => ws.bufferedAmount,
    end: (code, shortMessage) => ws.close(code, shortMessage),
    getUserData: () => userData,
  };
  ws.on('message', (data: Buffer, isBinary) => {
    silent.delete(ws);
    behavior.message(socket, asArrayBuffer(data), isBinary);
  });
  ws.on('pong', () => silent.delete(ws));
  ws.on('close', (code, reason) => behavior.close(socket, code, asArrayBuffer(reason)));
  behavior.open(socket);
}

function sweepEvery(route: SocketRoute): NodeJS.Timeout {
  const timer = setInterval(
    () => {
      for (const ws of route.server.clients) {
        if (silent.has(ws)) ws.terminate();
        else {
          silent.add(ws);
          ws.ping();
        }
      }
    },
    (route.behavior.idleTimeout * 1000) / 2,
  );
  timer.unref();
  return timer;
}

function App(): TemplatedApp {
  const routes: Route[] = [];
  const socketRoutes: SocketRoute[] = [];
  const add = (method: string | null) => (pattern: string, handler: Handler) => {
    routes.push({ method, segments: pattern.split('/').slice(1), handler });
    routes.sort((a, b) => rank(a) - rank(b));
    return app;
  };

  const dispatch = (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    const mark = url.indexOf('?');
    const path = mark < 0 ? url : url.slice(0, mark);
    const parts = path.split('/').slice(1);
    for (const route of routes) {
      if (route.method && route.method !== req.method) continue;
      const params = match(route.segments, parts);
      if (params)
        return route.handler(
          response(req, res),
          request(req, path, mark < 0 ? undefined : url.slice(mark + 1), params),
        );
    }
    res.writeHead(404).end();
  };

  const upgrade = (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const url = req.url ?? '/';
    const mark = url.indexOf('?');
    const path = mark < 0 ? url : url.slice(0, mark);
    const route = socketRoutes.find((r) => match(r.segments, path.split('/').slice(1)));
    if (!route) return void socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    route.behavior.upgrade(
      {
        upgrade: (userData) =>
          route.server.handleUpgrade(req, socket, head, (ws) => open(ws, userData, route.behavior)),
      },
      request(req, path, mark < 0 ? undefined : url.slice(mark + 1), []),
      {},
    );
  };

  const app: TemplatedApp = {
    get: add('GET'),
    post: add('POST'),
    del: add('DELETE'),
    any: add(null),
    ws(pattern, behavior) {
      const server = new WebSocketServer({
        noServer: true,
        maxPayload: behavior.maxPayloadLength,
        perMessageDeflate: false,
      });
      socketRoutes.push({ segments: pattern.split('/').slice(1), behavior: behavior, server });
      return app;
    },
    listen(host, port, cb) {
      const server = createServer(dispatch);
      server.on('upgrade', upgrade);
      const sweeps = socketRoutes.map(sweepEvery);
      server.on('close', () => sweeps.forEach(clearInterval));
      const failed = () => cb(false);
      server.once('error', failed);
      server.listen(port, host, () => {
        server.off('error', failed);
        cb(server);
      });
      return app;
    },
  };
  return app;
}

export const nodeEngine: HttpEngine = {
  name: 'node:http',
  App,
  us_socket_local_port: (socket: us_listen_socket) => ((socket as Server).address() as AddressInfo).port,
  us_listen_socket_close: (socket: us_listen_socket) => void (socket as Server).close(),
};
