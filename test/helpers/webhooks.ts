/**
 * A real https receiver on loopback for webhook tests: a self-signed certificate made by the openssl
 * CLI for this file (names localhost, hook.test, rebind.test and 127.0.0.1), written where the
 * service's WEBHOOK_CA_FILE can trust it. It records every request and answers what the test decides.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import type { TLSSocket } from 'node:tls';
import { join } from 'node:path';
import t from 'tap';

export interface Received {
  /** The request's path and query. */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The envelope's `id`. */
  id: string;
  type: string;
  at: number;
}

/**
 * How the receiver answers one request: a status, optionally after a delay (ms); or `drop`: the
 * connection closed, no answer; or `raw`: these bytes instead of an HTTP answer, then the end.
 */
export type Answer = { status: number; delayMs?: number; drop?: boolean; raw?: string };

export interface Receiver {
  /** `https://localhost:<port>`: append a path. */
  origin: string;
  port: number;
  /** The PEM file of the receiver's certificate, for WEBHOOK_CA_FILE. */
  caFile: string;
  received: Received[];
  /** TLS connections accepted, and how many of them resumed an earlier session. */
  handshakes: { full: number; resumed: number };
  /** Decides each answer (default 200); `nth` counts this event id's deliveries, from 1. */
  answer: (request: Received, nth: number) => Answer;
  /** Resolves once `count` requests matched `filter`. */
  until(count: number, filter?: (r: Received) => boolean, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

const SANS = 'subjectAltName=DNS:localhost,DNS:hook.test,DNS:rebind.test,IP:127.0.0.1';

export function makeCertificate(): { dir: string; key: string; cert: string; caFile: string } {
  const dir = mkdtempSync(join(tmpdir(), 'mbx-webhook-'));
  const keyFile = join(dir, 'key.pem');
  const caFile = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-addext',
      SANS,
      '-keyout',
      keyFile,
      '-out',
      caFile,
    ],
    { stdio: 'ignore' },
  );
  return { dir, key: readFileSync(keyFile, 'utf8'), cert: readFileSync(caFile, 'utf8'), caFile };
}

export async function startReceiver(): Promise<Receiver> {
  const { dir, key, cert, caFile } = makeCertificate();
  const counts = new Map<string, number>();
  const waiters = new Set<() => void>();
  const server: Server = createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const envelope = JSON.parse(body) as { id: string; type: string };
      const request: Received = {
        path: req.url ?? '',
        headers: req.headers,
        body,
        id: envelope.id,
        type: envelope.type,
        at: Date.now(),
      };
      const nth = (counts.get(request.id) ?? 0) + 1;
      counts.set(request.id, nth);
      receiver.received.push(request);
      for (const wake of waiters) wake();
      const { status, delayMs, drop, raw } = receiver.answer(request, nth);
      if (drop) return void req.socket.destroy();
      if (raw !== undefined) return void req.socket.end(raw);
      const reply = () => res.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
      if (delayMs) setTimeout(reply, delayMs);
      else reply();
    });
  });
  server.on('secureConnection', (socket: TLSSocket) => {
    if (socket.isSessionReused()) receiver.handshakes.resumed++;
    else receiver.handshakes.full++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const receiver: Receiver = {
    origin: `https://localhost:${port}`,
    port,
    caFile,
    received: [],
    handshakes: { full: 0, resumed: 0 },
    answer: () => ({ status: 200 }),
    until(count, filter = () => true, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const matched = receiver.received.filter(filter);
          if (matched.length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(matched);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `receiver: ${receiver.received.filter(filter).length} of ${count} requests after ${timeoutMs} ms`,
            ),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
        rmSync(dir, { recursive: true, force: true });
      }),
  };
  t.teardown(() => receiver.close());
  return receiver;
}
