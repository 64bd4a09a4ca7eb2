import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { RateState } from '../../actors/space.js';
import type { Config } from '../config.js';
import { MailboxError, type ErrorBody } from '../errors.js';
import type { Tool } from '../tools/registry.js';
import type { HttpRequest, HttpResponse } from './uws.js';
import { statusLine } from './uws.js';

/** What a handler needs of a request, read synchronously (uWS invalidates the request after the first await). */
export interface IncomingRequest {
  method: string;
  url: string;
  query: string;
  headers: Record<string, string>;
  /** The address of the connection's peer, as the engine gives it (src/http/anonymous.ts reads the client's from it). */
  peer: string;
  /** The client's X-Request-Id when it is sane, else ours: every answer and log line of the request carries it. */
  id: string;
  /** Headers every answer to this request carries, whatever it is: its id, and the key's budget once authenticated. */
  answerHeaders: Record<string, string>;
  aborted: boolean;
  onAbort: (() => void) | null;
}

/** A client's request id is kept when it can go into a header and a log line as it is. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

const requestIdOf = (given: string | undefined): string =>
  given !== undefined && SANE_REQUEST_ID.test(given) ? given : randomUUID();

export function readRequest(res: HttpResponse, req: HttpRequest): IncomingRequest {
  // A repeated header is combined as HTTP does ("a, b"), never last-one-wins: two Authorization
  // headers then make no single bearer, hence `unauthorized`.
  const headers: Record<string, string> = Object.create(null);
  req.forEach((key, value) => {
    headers[key] = key in headers ? `${headers[key]}, ${value}` : value;
  });
  const id = requestIdOf(headers['x-request-id']);
  const incoming: IncomingRequest = {
    method: req.getCaseSensitiveMethod(),
    url: req.getUrl(),
    query: req.getQuery() ?? '',
    headers,
    peer: Buffer.from(res.getRemoteAddressAsText()).toString(),
    id,
    answerHeaders: { 'x-request-id': id },
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
    for (const [name, value] of Object.entries({ ...request.answerHeaders, ...reply.headers }))
      res.writeHeader(name, value);
    res.end(reply.body, reply.close ?? false);
  });
}

/** A reply whose body is read as it is sent (a download): its size is known first, its bytes never whole in memory. */
export interface StreamReply {
  status: number;
  headers: Record<string, string>;
  size: number;
  body: Readable;
}

/**
 * Sends a stream with backpressure: reading pauses while the client's socket is full (the part of a
 * chunk it did not take waits for `onWritable`), and a client gone destroys the stream, freeing its
 * file or S3 connection. A stream that breaks off or ends short cuts the connection (the client sees
 * fewer bytes than Content-Length, never a silently truncated file) and goes to `broke`.
 */
export function sendStream(
  res: HttpResponse,
  request: IncomingRequest,
  reply: StreamReply,
  broke: (error: Error) => void,
): void {
  const { body, size } = reply;
  let finished = false;
  const finish = () => {
    finished = true;
    body.destroy();
  };
  if (request.aborted) return finish();
  request.onAbort = finish;
  res.cork(() => {
    res.writeStatus(statusLine(reply.status));
    for (const [name, value] of Object.entries({ ...request.answerHeaders, ...reply.headers }))
      res.writeHeader(name, value);
    // An empty body has no chunk to end with.
    if (size === 0) res.end();
  });
  if (size === 0) return finish();
  let failure: Error | null = null;
  let read = 0;
  body.on('data', (chunk: Buffer) => {
    read += chunk.byteLength;
    const offset = res.getWriteOffset();
    let sent: [boolean, boolean] = [false, false];
    // Outside a uWS callback: corked, or uWS writes (and warns) piece by piece.
    res.cork(() => void (sent = res.tryEnd(chunk, size)));
    const [ok, done] = sent;
    if (done) return finish();
    if (ok) return;
    body.pause();
    res.onWritable((at) => {
      const [retried, doneNow] = res.tryEnd(chunk.subarray(at - offset), size);
      if (doneNow) finish();
      else if (retried) body.resume();
      return retried;
    });
  });
  body.on('error', (error) => void (failure = error));
  body.on('close', () => {
    // A whole stream may close while its last chunk still waits for the socket: that one is not cut.
    if (finished || (!failure && read === size)) return;
    finished = true;
    broke(failure ?? new Error(`the stream ended before its ${size} bytes`));
    res.close();
  });
}

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };

export const jsonReply = (status: number, body: unknown, headers: Record<string, string> = {}): Reply => ({
  status,
  body: JSON.stringify(body),
  headers: { ...JSON_TYPE, ...headers },
});

/** Every refusal on the wire: docs/contract.md, Decision 1 body, `Retry-After` on 429/503, a challenge on 401. */
export function errorReply(error: MailboxError): Reply {
  const headers: Record<string, string> = {};
  if (error.status === 429 || error.status === 503) headers['retry-after'] = String(error.retryAfterSeconds ?? 60);
  if (error.status === 401) headers['www-authenticate'] = 'Bearer realm="mailbox"';
  const body: ErrorBody = error.toBody();
  return { ...jsonReply(error.status, body, headers), close: error.code === 'payload_too_large' };
}

/**
 * The key's request budget as draft-ietf-httpapi-ratelimit-headers-11 has it: the policy is the bucket
 * (`q` requests in a burst, refilled over `w` seconds), the state what is left (`r`) and the seconds
 * until the bucket is full again (`t`); on a refusal (429) the caller sets `t` to its Retry-After (docs/tools.md).
 */
export function rateLimitHeaders(rate: RateState, policy: Config['rateLimit']): Record<string, string> {
  return {
    'ratelimit-policy': `"default";q=${policy.burst};w=${Math.ceil(policy.burst / policy.perSecond)}`,
    ratelimit: `"default";r=${rate.remaining};t=${rate.fullInSeconds}`,
  };
}

export function bearerOf(headers: Record<string, string>): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '');
  return match ? match[1]! : null;
}

/**
 * Every object of a body gets no prototype: a `__proto__` key stays an ordinary (unknown) parameter,
 * which no later copy can turn into a prototype that hides it from validation and hashing. A walk after
 * the parse, not a reviver: V8 calls a reviver for every value, strings and numbers included, and
 * the bench body parsed in 2.9 µs with one, 1.3 µs with this walk (BENCHMARKS.md, "Sending").
 */
function withoutPrototype(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = withoutPrototype(value[i]);
    return value;
  }
  // JSON.parse made `__proto__` an own data property; assigning into a prototype-less object keeps it one.
  const bare: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(value)) bare[key] = withoutPrototype((value as Record<string, unknown>)[key]);
  return bare;
}

/** An empty body is `{}` (docs/contract.md, Decision 1); anything else must be JSON. The one parser of request bodies. */
export function parseJson(body: Buffer): unknown {
  if (body.length === 0) return Object.create(null);
  try {
    return withoutPrototype(JSON.parse(body.toString('utf8')));
  } catch {
    throw new MailboxError('invalid_argument', null, { reason: "le corps n'est pas du JSON valide." });
  }
}

/**
 * How large a request body may be: MAX_BODY_BYTES, plus the base64 of ATTACHMENT_MAX_BYTES for the
 * tools that take files (and /mcp, whose tool is known only once the body is read).
 */
export function bodyLimit(config: Config, tool: Tool | undefined | 'mcp'): number {
  const takesFiles = tool === 'mcp' || tool?.input.properties.attachments !== undefined;
  return takesFiles ? config.maxBodyBytes + Math.ceil(config.attachmentMaxBytes / 3) * 4 : config.maxBodyBytes;
}

export const takesIdempotencyKey = (tool: Tool | undefined): boolean =>
  tool?.input.properties.idempotency_key !== undefined;

/**
 * The `Idempotency-Key` header is the `idempotency_key` parameter of the tools that take one: used
 * when the body has none, refused when the body has another. Other tools ignore it.
 */
export function withIdempotencyHeader(body: unknown, header: string | undefined, tool: Tool | undefined): unknown {
  if (
    header === undefined ||
    !takesIdempotencyKey(tool) ||
    typeof body !== 'object' ||
    body === null ||
    Array.isArray(body)
  )
    return body;
  const input = body as Record<string, unknown>;
  const field = input.idempotency_key;
  if (field === undefined || field === null)
    return Object.assign(Object.create(null), input, { idempotency_key: header });
  if (field !== header) {
    throw new MailboxError(
      'invalid_argument',
      { parameter: 'idempotency_key' },
      { reason: "l'en-tête Idempotency-Key et le champ idempotency_key diffèrent ; n'en donnez qu'un, ou le même." },
    );
  }
  return body;
}
