/**
 * The HTTPS client of the webhook workers (plain HTTP to localhost in the development mode only): one POST, success when a 2xx arrives within the timeout.
 * The host is resolved and checked first (`target`, src/webhooks/address.ts) and the connection goes to
 * that checked address, while TLS still verifies the certificate against the host name. Keep-alive
 * connections are pooled per checked address: a pooled one was opened to an address checked then.
 * No redirect is followed. Trusted authorities: the system's, plus WEBHOOK_CA_FILE when set (tests
 * trust their own receiver that way; TLS verification is never turned off).
 *
 * A small HTTP/1.1 client on node:tls rather than node:https, because a delivery is all this worker
 * does: the request leaves in one write, and the answer is read only as far as its framing needs
 * (status, then Content-Length, chunks or the connection's end). node:https spent twice the CPU per
 * request, which capped a worker process (BENCHMARKS.md, Events). TLS sessions are kept per
 * destination, so a new connection resumes rather than redoes the handshake.
 */
import { connect as connectPlain, isIP, type Socket } from 'node:net';
import { connect, createSecureContext, rootCertificates, type SecureContext, type TLSSocket } from 'node:tls';
import type { Config } from '../config.js';
import { MailboxError } from '../errors.js';
import { bareHost, checkedAddress, WebhookUrlError } from './address.js';

export interface PostResult {
  ok: boolean;
  /** The HTTP status, when one arrived. */
  status: number | null;
  /**
   * Why it failed, as the space reads it (webhook state, journal at a give-up): a reason code,
   * `http_<status>` for an HTTP answer, NO_HTTP_ANSWER for any other failure (src/texts.ts, REASONS
   * gives their French); null on success.
   */
  error: string | null;
  /** What went wrong below HTTP, for the operator's log only; null otherwise. */
  detail: string | null;
}

/**
 * The one reason a space reads for a failure without an HTTP answer (refused, reset, timeout, TLS, DNS,
 * an address refused at delivery, not HTTP): telling them apart would let a space scan ports and
 * hosts through its webhook.
 */
export const NO_HTTP_ANSWER = 'no_http_answer';

const failure = (detail: string): PostResult => ({ ok: false, status: null, error: NO_HTTP_ANSWER, detail });

/** A receiver's answer is read this far, then the connection is dropped: only its status matters. */
const MAX_RESPONSE_BYTES = 64 * 1024;
/**
 * A pooled connection idle longer than this is closed rather than reused: servers close idle ones after
 * a few seconds (Node's after 5), and a request written just as they do would be lost.
 */
const IDLE_MS = 4_000;
/** TLS sessions kept for resumption, one per destination, the oldest forgotten first. */
const MAX_SESSIONS = 256;

/** What has arrived of an answer: its status, and whether it is whole (and the connection reusable). */
export interface Answer {
  status: number;
  complete: boolean;
  reusable: boolean;
}

/** Where the chunked body starting at `from` ends (after its trailers), or -1 while incomplete. */
function chunkedEnd(text: string, from: number): number {
  let at = from;
  for (;;) {
    const lineEnd = text.indexOf('\r\n', at);
    if (lineEnd < 0) return -1;
    // parseInt stops at a chunk extension (`;name=value`).
    const size = parseInt(text.slice(at, lineEnd), 16);
    if (Number.isNaN(size)) throw new Error('chunk illisible');
    at = lineEnd + 2;
    if (size > 0) {
      at += size + 2;
      continue;
    }
    for (;;) {
      const trailerEnd = text.indexOf('\r\n', at);
      if (trailerEnd < 0) return -1;
      if (trailerEnd === at) return at + 2;
      at = trailerEnd + 2;
    }
  }
}

/**
 * Reads an HTTP/1.1 answer (latin1 text of the bytes so far): null until its head is in. Interim
 * answers (1xx) are skipped. Throws on what is not HTTP/1.x.
 */
export function readAnswer(text: string): Answer | null {
  let start = 0;
  for (;;) {
    const headEnd = text.indexOf('\r\n\r\n', start);
    if (headEnd < 0) return null;
    const [statusLine, ...fields] = text.slice(start, headEnd).split('\r\n');
    const parsed = /^HTTP\/1\.([01]) (\d{3})/.exec(statusLine!);
    if (!parsed) throw new Error('pas une réponse HTTP/1');
    const status = Number(parsed[2]);
    const bodyStart = headEnd + 4;
    if (status < 200) {
      start = bodyStart;
      continue;
    }
    let length: number | null = null;
    let chunked = false;
    let keepAlive = parsed[1] === '1';
    for (const field of fields) {
      const colon = field.indexOf(':');
      const name = field.slice(0, colon).trim().toLowerCase();
      const value = field
        .slice(colon + 1)
        .trim()
        .toLowerCase();
      if (name === 'content-length') length = /^\d+$/.test(value) ? Number(value) : NaN;
      else if (name === 'transfer-encoding') chunked = value.endsWith('chunked');
      else if (name === 'connection') keepAlive = value === 'keep-alive' || (keepAlive && !value.includes('close'));
    }
    if (Number.isNaN(length)) throw new Error('Content-Length illisible');
    let end: number;
    if (status === 204 || status === 304) end = bodyStart;
    else if (chunked) end = chunkedEnd(text, bodyStart);
    else if (length !== null) end = text.length >= bodyStart + length ? bodyStart + length : -1;
    // No framing: the body ends with the connection.
    else return { status, complete: false, reusable: false };
    return { status, complete: end >= 0, reusable: keepAlive && end === text.length };
  }
}

function describe(error: NodeJS.ErrnoException, timeoutMs: number): string {
  if (error.message === 'timeout') return `pas de réponse complète en ${timeoutMs / 1000} s`;
  if (/CERT|SSL|TLS/.test(error.code ?? '')) return `certificat refusé (${error.code})`;
  return `connexion impossible (${error.code ?? error.message})`;
}

const resultOf = (status: number): PostResult =>
  status >= 200 && status < 300
    ? { ok: true, status, error: null, detail: null }
    : { ok: false, status, error: `http_${status}`, detail: null };

/** How one exchange ended; `silent`: the connection ended before any byte of an answer, and not by the timeout. */
interface Exchange {
  result: PostResult;
  reusable: boolean;
  silent: boolean;
}

/** One keep-alive connection, carrying one exchange at a time. */
class Connection {
  idleSince = 0;
  private received = '';
  private answer: Answer | null = null;
  private pending: ((exchange: Exchange) => void) | null = null;

  constructor(
    readonly socket: Socket,
    private readonly timeoutMs: number,
    onClose: (connection: Connection) => void,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.read(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) =>
      this.finish(failure(describe(error, timeoutMs)), false, error.message !== 'timeout' && this.received === ''),
    );
    socket.on('close', () => {
      // An answer framed by the connection's end is whole now.
      if (this.answer) this.finish(resultOf(this.answer.status), false);
      else this.finish(failure('connexion impossible (fermée avant la réponse)'), false, this.received === '');
      onClose(this);
    });
  }

  /** Sends the request (head and body in one write); resolves once the answer is read, failed or timed out. */
  exchange(request: string): Promise<Exchange> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.socket.destroy(new Error('timeout')), this.timeoutMs);
      this.received = '';
      this.answer = null;
      this.pending = (exchange) => {
        clearTimeout(timer);
        resolve(exchange);
      };
      this.socket.write(request);
    });
  }

  private read(chunk: Buffer): void {
    // Bytes while idle: nothing was asked, the connection is not trusted again.
    if (!this.pending) return void this.socket.destroy();
    this.received += chunk.toString('latin1');
    try {
      this.answer = readAnswer(this.received);
    } catch (error) {
      return this.finish(failure(`réponse illisible (${(error as Error).message})`), false);
    }
    if (this.answer?.complete) this.finish(resultOf(this.answer.status), this.answer.reusable);
    // A receiver that keeps talking loses the connection, not its status.
    else if (this.received.length > MAX_RESPONSE_BYTES) {
      this.finish(this.answer ? resultOf(this.answer.status) : failure('réponse illisible (trop longue)'), false);
    }
  }

  private finish(result: PostResult, reusable: boolean, silent = false): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = null;
    this.received = '';
    if (!reusable) this.socket.destroy();
    pending({ result, reusable, silent });
  }
}

export class WebhookClient {
  private readonly context: SecureContext;
  /** Idle connections by destination, the most recently used last. */
  private readonly idle = new Map<string, Connection[]>();
  private readonly sessions = new Map<string, Buffer>();

  constructor(private readonly config: Config) {
    // One context for every connection: built per connection, it would load the authorities each time.
    this.context = createSecureContext(config.webhookCa ? { ca: [...rootCertificates, config.webhookCa] } : {});
  }

  /** The checked address to connect to for the URL's host, or the failed delivery there is none. */
  async target(url: URL): Promise<{ address: string } | { failure: PostResult }> {
    try {
      return { address: await checkedAddress(this.config, url) };
    } catch (error) {
      if (error instanceof WebhookUrlError) return { failure: failure(error.message) };
      if (error instanceof MailboxError) return { failure: failure('résolution DNS impossible') };
      throw error;
    }
  }

  /** One POST to `address`, an address `target` checked for this URL. */
  async post(url: URL, address: string, headers: Record<string, string>, body: string): Promise<PostResult> {
    const host = bareHost(url);
    const port = Number(url.port || (url.protocol === 'http:' ? 80 : 443));
    const destination = `${url.protocol} ${address} ${port} ${host}`;
    let head = `POST ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\n`;
    for (const name in headers) head += `${name}: ${headers[name]}\r\n`;
    head += `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nuser-agent: Mailbox-Webhooks/1\r\n\r\n`;
    const pooled = this.take(destination);
    let connection = pooled ?? this.open(url, destination, address, port, host);
    let exchange = await connection.exchange(head + body);
    // A server may close a kept-alive connection just as the request leaves on it: nothing comes back.
    // Sent again at once on a new connection (once), rather than after the first retry delay; a
    // receiver that did get it sees the same webhook-id twice, as with any retry.
    if (pooled && exchange.silent) {
      connection = this.open(url, destination, address, port, host);
      exchange = await connection.exchange(head + body);
    }
    const { result, reusable } = exchange;
    if (reusable) {
      connection.idleSince = performance.now();
      const idle = this.idle.get(destination);
      if (idle) idle.push(connection);
      else this.idle.set(destination, [connection]);
    }
    return result;
  }

  private take(destination: string): Connection | null {
    const idle = this.idle.get(destination);
    for (let connection = idle?.pop(); connection; connection = idle!.pop()) {
      if (connection.socket.writable && performance.now() - connection.idleSince < IDLE_MS) return connection;
      connection.socket.destroy();
    }
    return null;
  }

  private open(url: URL, destination: string, address: string, port: number, host: string): Connection {
    // Plain http:// only reaches here in the development mode, to localhost (src/webhooks/address.ts).
    const socket =
      url.protocol === 'http:' ? connectPlain({ host: address, port }) : this.openTls(destination, address, port, host);
    return new Connection(socket, this.config.webhookTimeoutMs, (closed) => {
      const idle = this.idle.get(destination);
      const at = idle?.indexOf(closed) ?? -1;
      if (at >= 0) idle!.splice(at, 1);
      if (idle?.length === 0) this.idle.delete(destination);
    });
  }

  private openTls(destination: string, address: string, port: number, host: string): TLSSocket {
    const socket = connect({
      host: address,
      port,
      // The certificate is checked against the URL's host (an IP literal is checked as itself, without SNI).
      servername: isIP(host) ? undefined : host,
      secureContext: this.context,
      session: this.sessions.get(destination),
    });
    socket.on('session', (session: Buffer) => {
      this.sessions.delete(destination);
      this.sessions.set(destination, session);
      if (this.sessions.size > MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
    });
    return socket;
  }

  close(): void {
    for (const idle of this.idle.values()) for (const connection of idle) connection.socket.destroy();
    this.idle.clear();
  }
}
