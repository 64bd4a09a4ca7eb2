/**
 * A realtime socket client for tests (the `ws` package): messages queued as they come, read in order
 * with `next`; `closed` resolves with the close code and reason.
 */
import WebSocket from 'ws';

export interface SocketClient {
  ws: WebSocket;
  /** The next server message not yet read, parsed; rejects if the socket closes first. */
  next(): Promise<any>;
  send(message: unknown): void;
  closed: Promise<{ code: number; reason: string }>;
}

/** `base` is the front end's http:// URL; `key` goes on the upgrade as a bearer when given. */
export async function openSocket(base: string, key?: string): Promise<SocketClient> {
  const ws = new WebSocket(
    `${base.replace(/^http/, 'ws')}/v1/events/ws`,
    key === undefined ? {} : { headers: { authorization: `Bearer ${key}` } },
  );
  const queued: any[] = [];
  let waiting: { resolve: (m: any) => void; reject: (e: Error) => void } | null = null;
  let ended: Error | null = null;
  ws.on('message', (data) => {
    const message = JSON.parse(String(data));
    if (waiting) {
      waiting.resolve(message);
      waiting = null;
    } else queued.push(message);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => {
      ended = new Error(`socket closed (${code} ${reason})`);
      waiting?.reject(ended);
      resolve({ code, reason: String(reason) });
    }),
  );
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return {
    ws,
    next: () => {
      if (queued.length) return Promise.resolve(queued.shift());
      if (ended) return Promise.reject(ended);
      return new Promise((resolve, reject) => (waiting = { resolve, reject }));
    },
    send: (message) => ws.send(typeof message === 'string' ? message : JSON.stringify(message)),
    closed,
  };
}
