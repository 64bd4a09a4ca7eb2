/**
 * The realtime socket, `GET /v1/events/ws` (decisions.md 14; protocol in docs/events.md): the space's
 * events as event_feed gives them (same envelopes, same cursors, inbox restrictions applied), replayed
 * from the client's cursor, then pushed as they are written, each with the `next_cursor` to resume from.
 *
 * One blocking reader per space per process (`SpaceStream`: XREAD BLOCK on a connection of its own),
 * started with the space's first authenticated socket here and stopped with its last, fans each entry
 * out to the space's sockets. A socket that is behind (replaying) reads pages itself at its own pace,
 * waiting for its buffer to drain; once caught up with the reader it joins the push. Nothing is kept
 * for a socket but its position: a live socket that lets more than `maxBufferedBytes` pile up is closed
 * with 4000 and resumes from its last cursor, so nothing is lost and nothing grows without bound.
 */
import { awaitEntries, comparePositions, lastPosition, readEntries, visibleTo, type Envelope, type StreamEntry } from '../../actors/events.js';
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
import { blockingConnection } from '../redis/queues.js';
import type { Runtime } from '../runtime.js';
import { mayCall } from '../tools/dispatch.js';
import { feedCursor, feedPosition } from '../tools/event_feed.js';
import { toolByName } from '../tools/index.js';
import { bearerOf } from './io.js';
import type { WebSocket, WebSocketBehavior } from './uws.js';

export const REALTIME_PATH = '/v1/events/ws';

/** The close codes of decisions.md 14, and the two standard ones we also use. */
export const CLOSE = {
  resume: { code: 4000, reason: 'resume from your cursor' },
  revoked: { code: 4001, reason: 'key revoked' },
  unauthorized: { code: 4401, reason: 'unauthorized' },
  tryLater: { code: 1013, reason: 'try again later' },
  goingAway: { code: 1001, reason: 'server closing' },
} as const;
type Close = (typeof CLOSE)[keyof typeof CLOSE];

/** Entries one replay read asks for: a page is held while the client drains it, and events can weigh 256 KB. */
const REPLAY_PAGE = 50;
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
  /** The key given on the upgrade (Authorization: Bearer), checked at open. */
  bearer: string | null;
  access: Access | null;
  /** `subscribed`: replaying its backlog; `live`: in the reader's fan-out. */
  state: 'open' | 'subscribed' | 'live' | 'closed';
  /** The last stream entry passed to the client, shown or not. */
  position: string;
  visible: (envelope: Envelope) => boolean;
  /** The client's messages, handled one after the other. */
  queue: Promise<unknown>;
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

export function createRealtime(rt: Runtime): Realtime {
  const { maxBufferedBytes, authTimeoutMs, revocationCheckMs, blockMs } = rt.config.realtime;
  const streams = new Map<string, SpaceStream>();
  const sessions = new Set<Session>();

  const send = (session: Session, message: string) => session.ws!.send(message);

  const end = (session: Session, close: Close, error?: MailboxError) => {
    if (session.state === 'closed') return;
    if (error) send(session, errorMessage(error));
    countRealtimeClose(close.code);
    // `end` calls the close handler at once: the session must already read as closed.
    session.state = 'closed';
    session.ws!.end(close.code, close.reason);
  };

  /** Passes one entry to the session (shown when its key sees it); false when the socket had to close. */
  const pass = (session: Session, entry: StreamEntry, message: () => string): boolean => {
    if (session.state === 'closed') return false;
    if (comparePositions(entry.position, session.position) <= 0) return true;
    if (entry.envelope && session.visible(entry.envelope)) {
      if (session.ws!.getBufferedAmount() > maxBufferedBytes) {
        end(session, CLOSE.resume);
        return false;
      }
      send(session, message());
    }
    session.position = entry.position;
    return true;
  };

  /**
   * The space's one blocking reader in this process, and its sockets. It starts where the stream ends;
   * a socket joins its fan-out once its own replay has reached that point.
   */
  class SpaceStream {
    readonly sessions = new Set<Session>();
    /** The last entry the reader fanned out. */
    position = '0-0';
    readonly started: Promise<void>;
    private readonly connection: RedisClient = blockingConnection(rt.redis);
    private running = true;
    private readonly revocationTimer: NodeJS.Timeout;

    constructor(readonly spaceId: string) {
      this.connection.on('error', (error: Error) => rt.log.warn('realtime reader connection error', { space_id: spaceId, error: error.message }));
      realtimeReaderStarted();
      this.started = lastPosition(rt, spaceId).then((position) => {
        this.position = position;
        void this.read();
      });
      this.started.catch(() => this.stop(CLOSE.tryLater, new MailboxError('service_unavailable')));
      this.revocationTimer = setInterval(() => void this.closeRevoked(), revocationCheckMs);
    }

    private async read(): Promise<void> {
      while (this.running) {
        let entries: StreamEntry[];
        try {
          entries = await awaitEntries(this.connection, this.spaceId, this.position, LIVE_BATCH, blockMs);
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
        if (!existing.has(session.access!.key.id)) end(session, CLOSE.revoked, new MailboxError('unauthorized', null, { reason: 'la clé a été révoquée.' }));
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

  /** Resolves once the socket's buffer is down to half the limit, or the socket closed. */
  const roomFor = (session: Session): Promise<void> | null => {
    if (session.ws!.getBufferedAmount() <= maxBufferedBytes / 2) return null;
    return new Promise((resolve) => (session.drained = resolve));
  };

  /** Reads from the session's cursor at the client's pace until it meets the reader, then joins it. */
  const replay = async (session: Session, stream: SpaceStream) => {
    const spaceId = stream.spaceId;
    await stream.started;
    for (;;) {
      const entries = await readEntries(rt, spaceId, session.position, REPLAY_PAGE);
      for (const entry of entries) {
        const full = roomFor(session);
        if (full) await full;
        if (!pass(session, entry, () => eventMessage(spaceId, entry))) return;
      }
      if (session.state === 'closed') return;
      if (entries.length < REPLAY_PAGE && comparePositions(session.position, stream.position) >= 0) break;
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
    session.visible = visibleTo(access.key.inbox_ids);
    streamOf(access.space.id).sessions.add(session);
  };

  const feed = toolByName.get('event_feed')!;

  const subscribe = async (session: Session, after: unknown) => {
    const access = session.access!;
    if (session.state !== 'open') throw new MailboxError('invalid_argument', null, { reason: 'ce socket est déjà abonné ; ouvrez-en un autre pour un autre curseur.' });
    if (!mayCall(feed, access)) throw new MailboxError('forbidden', null, { reason: 'le flux des événements demande la permission read.' });
    if (after !== undefined && typeof after !== 'string') throw new MailboxError('invalid_argument', { parameter: 'after' }, { reason: 'after est le next_cursor reçu, une chaîne.' });
    session.position = after === undefined ? '0-0' : feedPosition(access.space.id, after, 'after');
    session.state = 'subscribed';
    await replay(session, streams.get(access.space.id)!);
  };

  const handle = async (session: Session, text: string) => {
    let message: { type?: unknown; api_key?: unknown; after?: unknown };
    try {
      message = JSON.parse(text);
    } catch {
      throw new MailboxError('invalid_argument', null, { reason: "le message n'est pas du JSON valide." });
    }
    const type = typeof message === 'object' && message !== null ? message.type : undefined;
    if (type === 'ping') return send(session, '{"type":"pong"}');
    if (!session.access) {
      if (type === 'auth') return login(session, typeof message.api_key === 'string' ? message.api_key : null);
      return end(session, CLOSE.unauthorized, new MailboxError('unauthorized', null, { reason: 'le premier message doit être {"type":"auth","api_key":…}.' }));
    }
    if (type === 'subscribe') return subscribe(session, message.after);
    if (type === 'auth') throw new MailboxError('invalid_argument', null, { reason: 'ce socket est déjà authentifié.' });
    throw new MailboxError('invalid_argument', { parameter: 'type' }, { reason: 'les messages sont auth, subscribe et ping.' });
  };

  /** Refusals of one message answer an error and leave the socket open; a failure of ours is logged. */
  const enqueue = (session: Session, work: () => unknown) => {
    session.queue = session.queue
      // A socket closed while earlier messages were handled: what it sent after is moot.
      .then(() => (session.state === 'closed' ? undefined : work()))
      .catch((error: unknown) => {
        const refusal = asMailboxError(error);
        if (refusal.code === 'internal') rt.log.error('realtime message failed', { error: String((error as Error)?.stack ?? error) });
        if (session.state !== 'closed') send(session, errorMessage(refusal));
      });
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
        ws: null, bearer, access: null, state: 'open', position: '0-0', visible: () => false, queue: Promise.resolve(), authTimer: null, drained: null,
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
      if (bearer !== null) return enqueue(session, () => login(session, bearer));
      session.authTimer = setTimeout(() => {
        if (!session.access) end(session, CLOSE.unauthorized, new MailboxError('unauthorized', null, { reason: `aucun message auth dans les ${authTimeoutMs / 1000} s.` }));
      }, authTimeoutMs);
    },
    message(ws, message, isBinary) {
      const session = ws.getUserData();
      if (isBinary) {
        return enqueue(session, () => {
          throw new MailboxError('invalid_argument', null, { reason: 'les messages sont du texte JSON.' });
        });
      }
      const text = Buffer.from(message).toString('utf8');
      enqueue(session, () => handle(session, text));
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
