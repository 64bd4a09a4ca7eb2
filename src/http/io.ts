import { MailboxError, type ErrorBody } from '../errors.js';
import type { HttpRequest, HttpResponse } from './uws.js';
import { statusLine } from './uws.js';

/** What a handler needs of a request, read synchronously (uWS invalidates the request after the first await). */
export interface IncomingRequest {
  method: string;
  url: string;
  query: string;
  headers: Record<string, string>;
  aborted: boolean;
  onAbort: (() => void) | null;
}

export function readRequest(res: HttpResponse, req: HttpRequest): IncomingRequest {
  const headers: Record<string, string> = {};
  req.forEach((key, value) => {
    headers[key] = value;
  });
  const incoming: IncomingRequest = {
    method: req.getCaseSensitiveMethod(),
    url: req.getUrl(),
    query: req.getQuery() ?? '',
    headers,
    aborted: false,
    onAbort: null,
  };
  res.onAborted(() => {
    incoming.aborted = true;
    incoming.onAbort?.();
  });
  return incoming;
}

/** Reads the whole body, copying chunks (uWS reuses them); refuses past `maxBytes`. */
export function readBody(res: HttpResponse, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    res.onData((chunk, isLast) => {
      if (refused) return;
      size += chunk.byteLength;
      if (size > maxBytes) {
        refused = true;
        reject(new MailboxError('payload_too_large', { max_bytes: maxBytes }));
        return;
      }
      chunks.push(Buffer.from(chunk.slice(0)));
      if (isLast) resolve(Buffer.concat(chunks));
    });
  });
}

export interface Reply {
  status: number;
  body: string | Uint8Array;
  headers?: Record<string, string>;
  /** Close the connection after this reply (a body we stopped reading). */
  close?: boolean;
}

export function send(res: HttpResponse, request: IncomingRequest, reply: Reply): void {
  if (request.aborted) return;
  res.cork(() => {
    res.writeStatus(statusLine(reply.status));
    for (const [name, value] of Object.entries(reply.headers ?? {})) res.writeHeader(name, value);
    res.end(reply.body, reply.close ?? false);
  });
}

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };

export const jsonReply = (status: number, body: unknown, headers: Record<string, string> = {}): Reply => ({
  status,
  body: JSON.stringify(body),
  headers: { ...JSON_TYPE, ...headers },
});

/** Every refusal on the wire: decisions.md 1 body, `Retry-After` on 429/503, a challenge on 401. */
export function errorReply(error: MailboxError): Reply {
  const headers: Record<string, string> = {};
  if (error.status === 429 || error.status === 503) headers['retry-after'] = String(error.retryAfterSeconds ?? 60);
  if (error.status === 401) headers['www-authenticate'] = 'Bearer realm="mailbox"';
  const body: ErrorBody = error.toBody();
  return { ...jsonReply(error.status, body, headers), close: error.code === 'payload_too_large' };
}

export function bearerOf(headers: Record<string, string>): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '');
  return match ? match[1]! : null;
}

/** An empty body is `{}` (decisions.md 1); anything else must be JSON. */
export function parseJson(body: Buffer): unknown {
  if (body.length === 0) return {};
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw new MailboxError('invalid_argument', null, { reason: "le corps n'est pas du JSON valide." });
  }
}
