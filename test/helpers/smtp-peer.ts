/**
 * A peer MTA on a loopback port (smtp-server): what the delivery layer's relay or direct delivery talks
 * to in tests. It keeps every message it accepts with its envelope, and answers RCPT TO as the test says
 * (550 5.1.1, 451...). STARTTLS is offered with smtp-server's built-in test certificate unless disabled.
 */
import t from 'tap';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';

export interface Received {
  from: string;
  to: string[];
  raw: Buffer;
  /** The session went through STARTTLS. */
  secure: boolean;
  /** The name the client gave in EHLO. */
  helo: string;
  /** The authenticated user, when AUTH was used. */
  user: string | null;
}

export interface PeerOptions {
  /** The reply to RCPT TO for an address: null accepts. */
  rcpt?: (address: string) => { code: number; message: string } | null;
  /** Credentials AUTH must present (allowed without TLS, as a relay on loopback would). */
  auth?: { user: string; pass: string };
  starttls?: boolean;
  /** Where to listen: 127.0.0.1 unless told. */
  host?: string;
  /** Called when a message's data begins (a test may kill its sender there). */
  onDataStart?: () => void;
}

export interface Peer {
  port: number;
  received: Received[];
  /** The next message accepted (or the oldest one not taken yet). */
  next(): Promise<Received>;
  close(): Promise<void>;
}

/** The socket errors of a sender gone mid-session (smtp-server's own quiet list). */
const DROPPED_CONNECTION = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

const refusal = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });

export async function startPeer(options: PeerOptions = {}): Promise<Peer> {
  const received: Received[] = [];
  const unread: Received[] = [];
  const waiting: ((message: Received) => void)[] = [];
  const server = new SMTPServer({
    logger: false,
    // The service's pooled relay connections stay open: closing waits for them 30 s by default.
    closeTimeout: 100,
    disabledCommands: options.starttls === false ? ['STARTTLS'] : [],
    authOptional: !options.auth,
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      const good = options.auth && auth.username === options.auth.user && auth.password === options.auth.pass;
      callback(good ? null : refusal(535, '5.7.8 Identifiants refusés'), good ? { user: auth.username } : undefined);
    },
    onRcptTo(address, _session, callback) {
      const answer = options.rcpt?.(address.address) ?? null;
      callback(answer ? refusal(answer.code, answer.message) : null);
    },
    onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback) {
      options.onDataStart?.();
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const envelope = session.envelope;
        const message: Received = {
          from: envelope.mailFrom ? envelope.mailFrom.address : '',
          to: envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks),
          secure: session.secure,
          helo: session.hostNameAppearsAs,
          user: (session.user as string | undefined) ?? null,
        };
        received.push(message);
        const waiter = waiting.shift();
        if (waiter) waiter(message);
        else unread.push(message);
        callback();
      });
    },
  });
  // A sender killed mid-message drops the connection (smtp-server reports it only inside a transaction):
  // a test's point, not an error of the peer. Any other error still fails the test.
  server.on('error', (error: NodeJS.ErrnoException) => {
    if (!DROPPED_CONNECTION.has(error.code ?? '')) throw error;
  });
  await new Promise<void>((resolve) => server.listen(0, options.host ?? '127.0.0.1', resolve));
  const address = server.server.address();
  const peer: Peer = {
    port: typeof address === 'object' && address ? address.port : 0,
    received,
    next: () => {
      const ready = unread.shift();
      return ready ? Promise.resolve(ready) : new Promise((resolve) => waiting.push(resolve));
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  t.teardown(() => peer.close());
  return peer;
}
