/**
 * The realtime socket, `GET /v1/events/ws` (docs/contract.md, Decision 14; protocol in docs/events.md): the space's
 * events as event_feed gives them (same envelopes, same cursors, inbox restrictions applied), replayed
 * from the client's cursor, then pushed as they are written, each with the `next_cursor` to resume from.
 *
 * One blocking reader per space per process (`SpaceStream`: XREAD BLOCK on a connection of its own),
 * started with the space's first authenticated socket here and stopped with its last, fans each entry
 * out to the space's sockets. A socket that is behind (replaying) reads small pages itself at its own
 * pace (REPLAY_PAGE entries, at most REPLAY_TEXTS long texts), waiting for its buffer to drain before
 * each event; once caught up with the reader it joins the push. Nothing is kept for a socket but its
 * position and that one page: a socket that lets more than `maxBufferedBytes` pile up (events, pongs,
 * errors unread; or messages of its own not yet handled) is closed with 4000 and resumes from its last
 * cursor, so nothing is lost and nothing grows without bound. Sockets are counted per key and per space
 * in Redis (actors/sockets.ts), shared by every front end. A closed socket is never touched again: uWS
 * throws on any use of one, so every step after a wait looks at the session's state first.
 */
import { randomBytes } from 'node:crypto';
import {
  awaitEntries,
  comparePositions,
  lastPosition,
  readEntries,
  visibleTo,
  type Envelope,
  type StreamEntry,
} from '../../actors/events.js';
import { closeSocket, keepSockets, openSocket } from '../../actors/sockets.js';
import { authenticate, existingKeys, type Access } from '../../actors/space.js';
import { asMailboxError, MailboxError } from '../errors.js';
import {
  countRealtimeClose,
  realtimeReaderStarted,
  realtimeReaderStopped,
  realtimeSocketClosed,
  realtimeSocketOpened,
} from '../metrics.js';
import type { RedisClient } from '../redis/connect.js';
import { workerConnection } from '../redis/queues.js';
import type { Runtime } from '../runtime.js';
import { mayCall } from '../tools/dispatch.js';
import { feedCursor, feedPosition } from '../tools/event_feed.js';
import { toolByName } from '../tools/index.js';
import { bearerOf } from './io.js';
import type { WebSocket, WebSocketBehavior } from './uws.js';

export const REALTIME_PATH = '/v1/events/ws';

/** The close codes of docs/contract.md, Decision 14, and the two standard ones we also use. */
const CLOSE = {
  resume: { code: 4000, reason: 'resume from your cursor' },
  revoked: { code: 4001, reason: 'key revoked' },
  unauthorized: { code: 4401, reason: 'unauthorized' },
  tryLater: { code: 1013, reason: 'try again later' },
  tooMany: { code: 4029, reason: 'too many sockets' },
  goingAway: { code: 1001, reason: 'server closing' },
} as const;
type Close = (typeof CLOSE)[keyof typeof CLOSE];

/** Entries one replay read asks for: a page is held while the client drains it. */
const REPLAY_PAGE = 50;
/** Of those, message events with a long text (up to 256 KB each, EVENT_MAX_BYTES): a page weighs about 1 MB at most. */
const REPLAY_TEXTS = 2;
/** Entries one blocking read takes at most. */
const LIVE_BATCH = 100;
/** Client messages are a few words: auth, subscribe, ping. */
const MAX_CLIENT_MESSAGE_BYTES = 16 * 1024;
/** uWS's default: it pings an idle socket, and closes one that stays silent this long (seconds). */
const IDLE_TIMEOUT_SECONDS = 120;
/** Before a failed blocking read (Redis away) is tried again. */
const READ_RETRY_MS = 500;

interface Session {
  ws: WebSocket<Session> | null;
  /** Its place in the space's and key's counts (actors/sockets.ts), once authenticated. */
  socketId: string;
  counted: boolean;
  /** The key given on the upgrade (Authorization: Bearer), checked at open. */
  bearer: string | null;
  access: Access | null;
  /** `subscribed`: replaying its backlog; `live`: in the reader's fan-out. */
  state: 'open' | 'subscribed' | 'live' | 'closed';
  /** The last stream entry passed to the client, shown or not. */
  position: string;
  visible: (envelope: Envelope) => boolean;
  /** The client's messages, handled one after the other, and their bytes not yet handled. */
  queue: Promise<unknown>;
  queuedBytes: number;
  authTimer: NodeJS.Timeout | null;
  /** Wakes a replay waiting for the buffer to drain (or for the socket to close). */
  drained: (() => void) | null;
}

export interface Realtime {
  behavior: WebSocketBehavior<Session>;
  /** Ends every socket (1001) and stops the readers. */
  close(): void;
}

const eventMessage = (spaceId: string, entry: StreamEntry): string =>
  JSON.stringify({ type: 'event', event: entry.envelope, next_cursor: feedCursor(spaceId, entry.position) });

const errorMessage = (error: MailboxError): string => JSON.stringify({ type: 'error', ...error.toBody().error });

const PONG = '{"type":"pong"}';

/** A client message as parsed: an object with a `type`, as far as JSON tells (any other JSON value reads as no type). */
type ClientMessage = { type?: unknown; api_key?: unknown; after?: unknown };

/** The message parsed, or null when it is not JSON. */
function parseMessage(text: string): ClientMessage | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? value : {};
  } catch {
    return null;
  }
}

export function createRealtime(rt: Runtime): Realtime {
  const { maxBufferedBytes, authTimeoutMs, revocationCheckMs, blockMs, socketLeaseMs } = rt.config.realtime;
  const streams = new Map<string, SpaceStream>();
  const sessions = new Set<Session>();
  /** Socket ids: this process's random prefix and a count, unique across front ends. */
  const instance = randomBytes(6).toString('hex');
  let opened = 0;

  /** Read through a call: a socket may close during any wait, which TypeScript's narrowing does not see. */
  const closed = (session: Session) => session.state === 'closed';
  const over = (session: Session) => session.ws!.getBufferedAmount() + session.queuedBytes > maxBufferedBytes;

  /** Sends a message to an open socket; one past its buffer limit is closed with 4000 instead. False when nothing was sent. */
  const send = (session: Session, message: string): boolean => {
    if (session.state === 'closed') return false;
    if (over(session)) {
      end(session, CLOSE.resume);
      return false;
    }
    session.ws!.send(message);
    return true;
  };

  const end = (session: Session, close: Close, error?: MailboxError) => {
    if (session.state === 'closed') return;
    if (error && !over(session)) session.ws!.send(errorMessage(error));
    countRealtimeClose(close.code);
    // `end` calls the close handler at once: the session must already read as closed.
    session.state = 'closed';
    session.ws!.end(close.code, close.reason);
  };

  /** Passes one entry to the session (shown when its key sees it); false when the socket closed. */
  const pass = (session: Session, entry: StreamEntry, message: () => string): boolean => {
    if (session.state === 'closed') return false;
    if (comparePositions(entry.position, session.position) <= 0) return true;
    if (entry.envelope && session.visible(entry.envelope) && !send(session, message())) return false;
    session.position = entry.position;
    return true;
  };

  const counted = (session: Session) => ({ keyId: session.access!.key.id, socketId: session.socketId });

  /**
   * The space's one blocking reader in this process, and its sockets. It starts where the stream ends;
   * a socket joins its fan-out once its own replay has reached that point.
   */
  class SpaceStream {
    readonly sessions = new Set<Session>();
    /** The last entry the reader fanned out. */
    position = '0-0';
    readonly started: Promise<void>;
    private readonly connection: RedisClient = workerConnection(rt.redis);
    private running = true;
    private readonly revocationTimer: NodeJS.Timeout;
    private readonly leaseTimer: NodeJS.Timeout;

    constructor(readonly spaceId: string) {
      this.connection.on('error', (error: Error) =>
        rt.log.warn('realtime reader connection error', { space_id: spaceId, error: error.message }),
      );
      realtimeReaderStarted();
      this.started = lastPosition(rt, spaceId).then((position) => {
        this.position = position;
        void this.read();
      });
      this.started.catch(() => this.stop(CLOSE.tryLater, new MailboxError('service_unavailable')));
      this.revocationTimer = setInterval(() => void this.closeRevoked(), revocationCheckMs);
      this.leaseTimer = setInterval(() => void this.keepPlaces(), socketLeaseMs / 3);
    }

    /** Pushes on the places of this front end's sockets of the space in the counts; Redis away: the next round, well within the lease. */
    private async keepPlaces(): Promise<void> {
      await keepSockets(rt, this.spaceId, [...this.sessions].map(counted)).catch((error: Error) =>
        rt.log.warn('realtime socket lease not renewed', { space_id: this.spaceId, error: error.message }),
      );
    }

    private async read(): Promise<void> {
      while (this.running) {
        let entries: StreamEntry[];
        try {
          entries = await awaitEntries(rt, this.connection, this.spaceId, this.position, LIVE_BATCH, blockMs);
        } catch (error) {
          if (!this.running) return;
          rt.log.warn('realtime read failed', { space_id: this.spaceId, error: (error as Error).message });
          await new Promise((resolve) => setTimeout(resolve, READ_RETRY_MS));
          continue;
        }
        for (const entry of entries) {
          this.position = entry.position;
          let message: string | null = null;
          for (const session of this.sessions) {
            if (session.state === 'live') pass(session, entry, () => (message ??= eventMessage(this.spaceId, entry)));
          }
        }
      }
    }

    private async closeRevoked(): Promise<void> {
      const keyIds = [...new Set([...this.sessions].map((s) => s.access!.key.id))];
      if (!keyIds.length) return;
      let existing: Set<string>;
      try {
        existing = await existingKeys(rt, this.spaceId, keyIds);
      } catch {
        return; // Redis away: the next check decides.
      }
      for (const session of this.sessions) {
        if (!existing.has(session.access!.key.id))
          end(session, CLOSE.revoked, new MailboxError('unauthorized', null, { reason: 'la clé a été révoquée.' }));
      }
    }

    leave(session: Session): void {
      this.sessions.delete(session);
      if (!this.sessions.size) this.stop();
    }

    stop(close?: Close, error?: MailboxError): void {
      if (!this.running) return;
      this.running = false;
      streams.delete(this.spaceId);
      clearInterval(this.revocationTimer);
      clearInterval(this.leaseTimer);
      this.connection.disconnect();
      realtimeReaderStopped();
      if (close) for (const session of [...this.sessions]) end(session, close, error);
    }
  }

  const streamOf = (spaceId: string): SpaceStream => {
    let stream = streams.get(spaceId);
    if (!stream) streams.set(spaceId, (stream = new SpaceStream(spaceId)));
    return stream;
  };

  /** Resolves once the socket's buffer is down to half the limit, or the socket closed; null when there is room now. */
  const roomFor = (session: Session): Promise<void> | null => {
    if (session.state === 'closed' || session.ws!.getBufferedAmount() <= maxBufferedBytes / 2) return null;
    return new Promise((resolve) => (session.drained = resolve));
  };

  /** Reads from the session's cursor at the client's pace, a page at a time, until it meets the reader, then joins it. */
  const replay = async (session: Session, stream: SpaceStream) => {
    const spaceId = stream.spaceId;
    await stream.started;
    for (;;) {
      if (session.state === 'closed') return;
      const { entries, end: last } = await readEntries(rt, spaceId, session.position, REPLAY_PAGE, REPLAY_TEXTS);
      for (const entry of entries) {
        const full = roomFor(session);
        if (full) await full;
        if (!pass(session, entry, () => eventMessage(spaceId, entry))) return;
      }
      // Closed while the page was read (nothing passed): never touched again.
      if (closed(session)) return;
      if (last && comparePositions(session.position, stream.position) >= 0) break;
    }
    session.state = 'live';
    send(session, JSON.stringify({ type: 'ready', next_cursor: feedCursor(spaceId, session.position) }));
  };

  const login = async (session: Session, secret: string | null) => {
    if (session.authTimer) clearTimeout(session.authTimer);
    let access: Access;
    try {
      access = await authenticate(rt, secret);
    } catch (error) {
      const refusal = asMailboxError(error);
      return end(session, refusal.code === 'unauthorized' ? CLOSE.unauthorized : CLOSE.tryLater, refusal);
    }
    if (session.state === 'closed') return;
    session.access = access;
    try {
      await openSocket(rt, access.space.id, counted(session));
    } catch (error) {
      const refusal = asMailboxError(error);
      return end(session, refusal.code === 'socket_limit' ? CLOSE.tooMany : CLOSE.tryLater, refusal);
    }
    session.counted = true;
    // Closed while it was counted in: the close handler found nothing to give back yet.
    if (closed(session)) return release(session);
    session.visible = visibleTo(access.key.inbox_ids);
    streamOf(access.space.id).sessions.add(session);
  };

  const release = (session: Session) =>
    void closeSocket(rt, session.access!.space.id, counted(session)).catch((error: Error) =>
      // Its places end by themselves within a lease.
      rt.log.warn('realtime socket not given back', { space_id: session.access!.space.id, error: error.message }),
    );

  const feed = toolByName.get('event_feed')!;

  const subscribe = async (session: Session, after: unknown) => {
    const access = session.access!;
    if (session.state !== 'open')
      throw new MailboxError('invalid_argument', null, {
        reason: 'ce socket est déjà abonné ; ouvrez-en un autre pour un autre curseur.',
      });
    if (!mayCall(feed, access))
      throw new MailboxError('forbidden', null, { reason: 'le flux des événements demande la permission read.' });
    if (after !== undefined && typeof after !== 'string')
      throw new MailboxError(
        'invalid_argument',
        { parameter: 'after' },
        { reason: 'after est le next_cursor reçu, une chaîne.' },
      );
    session.position = after === undefined ? '0-0' : feedPosition(access.space.id, after, 'after');
    session.state = 'subscribed';
    await replay(session, streams.get(access.space.id)!);
  };

  /** A client message other than ping; null: not JSON. */
  const handle = async (session: Session, message: ClientMessage | null) => {
    if (message === null)
      throw new MailboxError('invalid_argument', null, { reason: "le message n'est pas du JSON valide." });
    const { type } = message;
    if (!session.access) {
      if (type === 'auth') return login(session, typeof message.api_key === 'string' ? message.api_key : null);
      return end(
        session,
        CLOSE.unauthorized,
        new MailboxError('unauthorized', null, { reason: 'le premier message doit être {"type":"auth","api_key":…}.' }),
      );
    }
    if (type === 'subscribe') return subscribe(session, message.after);
    if (type === 'auth')
      throw new MailboxError('invalid_argument', null, { reason: 'ce socket est déjà authentifié.' });
    throw new MailboxError(
      'invalid_argument',
      { parameter: 'type' },
      { reason: 'les messages sont auth, subscribe et ping.' },
    );
  };

  /**
   * Queues a message of `bytes` behind the socket's earlier ones (a replay may hold them while the
   * client does not read): past the buffer limit, the socket closes instead. Refusals of one message
   * answer an error and leave the socket open; a failure of ours is logged.
   */
  const enqueue = (session: Session, bytes: number, work: () => unknown) => {
    session.queuedBytes += bytes;
    if (over(session)) return end(session, CLOSE.resume);
    session.queue = session.queue
      // A socket closed while earlier messages were handled: what it sent after is moot.
      .then(() => (session.state === 'closed' ? undefined : work()))
      .catch((error: unknown) => {
        const refusal = asMailboxError(error);
        if (refusal.code === 'internal')
          rt.log.error('realtime message failed', { error: String((error as Error)?.stack ?? error) });
        send(session, errorMessage(refusal));
      })
      .finally(() => (session.queuedBytes -= bytes));
  };

  const behavior: WebSocketBehavior<Session> = {
    maxPayloadLength: MAX_CLIENT_MESSAGE_BYTES,
    idleTimeout: IDLE_TIMEOUT_SECONDS,
    // uWS drops sends past this; we close at maxBufferedBytes, and one event may still go beyond it.
    maxBackpressure: maxBufferedBytes + 64 * 1024 * 1024,
    upgrade(res, req, context) {
      let authorization = '';
      let key = '';
      let extensions = '';
      req.forEach((name, value) => {
        if (name === 'authorization') authorization = value;
        else if (name === 'sec-websocket-key') key = value;
        else if (name === 'sec-websocket-extensions') extensions = value;
      });
      // A malformed Authorization is a wrong key (4401), not an absent one (wait for `auth`).
      const bearer = authorization ? (bearerOf({ authorization }) ?? '') : null;
      const session: Session = {
        ws: null,
        socketId: `${instance}-${++opened}`,
        counted: false,
        bearer,
        access: null,
        state: 'open',
        position: '0-0',
        visible: () => false,
        queue: Promise.resolve(),
        queuedBytes: 0,
        authTimer: null,
        drained: null,
      };
      res.upgrade(session, key, '', extensions, context);
    },
    open(ws) {
      const session = ws.getUserData();
      session.ws = ws;
      sessions.add(session);
      realtimeSocketOpened();
      const bearer = session.bearer;
      // The secret is not kept past its one use.
      session.bearer = null;
      if (bearer !== null) return enqueue(session, 0, () => login(session, bearer));
      session.authTimer = setTimeout(() => {
        if (!session.access)
          end(
            session,
            CLOSE.unauthorized,
            new MailboxError('unauthorized', null, {
              reason: `aucun message auth dans les ${authTimeoutMs / 1000} s.`,
            }),
          );
      }, authTimeoutMs);
    },
    message(ws, message, isBinary) {
      const session = ws.getUserData();
      // On node:http a socket we ended still reads until its close handshake is over: what it says is moot.
      if (session.state === 'closed') return;
      if (isBinary) {
        return enqueue(session, message.byteLength, () => {
          throw new MailboxError('invalid_argument', null, { reason: 'les messages sont du texte JSON.' });
        });
      }
      const text = Buffer.from(message).toString('utf8');
      const parsed = parseMessage(text);
      // Answered at once, even while a replay holds the queue: its pong counts against the buffer limit as any message.
      if (parsed?.type === 'ping') return void send(session, PONG);
      enqueue(session, text.length, () => handle(session, parsed));
    },
    drain(ws) {
      const session = ws.getUserData();
      if (session.drained && ws.getBufferedAmount() <= maxBufferedBytes / 2) {
        session.drained();
        session.drained = null;
      }
    },
    close(ws) {
      const session = ws.getUserData();
      session.state = 'closed';
      sessions.delete(session);
      realtimeSocketClosed();
      if (session.authTimer) clearTimeout(session.authTimer);
      session.drained?.();
      if (session.counted) release(session);
      if (session.access) streams.get(session.access.space.id)?.leave(session);
    },
  };

  return {
    behavior,
    close() {
      for (const session of [...sessions]) end(session, CLOSE.goingAway);
      for (const stream of [...streams.values()]) stream.stop();
    },
  };
}
