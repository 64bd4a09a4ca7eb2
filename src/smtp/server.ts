/**
 * The inbound SMTP front end (`mailbox serve --role smtp`, started by `all`): smtp-server on SMTP_PORT,
 * every command a short hook chain of the named stages of src/smtp/stages.ts. A session is admitted
 * within the connection limits and cut (421) past its time or when its DATA crawls; RCPT TO is routed
 * at once so unknown recipients get 550 there, later each time; DATA is read once, within its bounds,
 * through the parser and the authentication checks, then each recipient's route stores it. The 250
 * comes only after Redis wrote. This file holds the wiring and the per-session state only.
 */
import { performance } from 'node:perf_hooks';
import type { SMTPServerSession } from 'smtp-server';
import { countSmtpVerdict, smtpSessionClosed, smtpSessionOpened } from '../metrics.js';
import type { Runtime } from '../runtime.js';
import { PromptSmtpServer } from './prompt-greeting.js';
import { answer, runChain, smtpReply, type Stage, type Verdict } from './chain.js';
import { mailauthResolver } from './dns.js';
import type { Route } from './routing.js';
import { listenSmtp, readSmtpTls, type SmtpFrontEnd } from './listen.js';
import {
  connectLimits,
  DATA_TOO_SLOW,
  dataTooSlow,
  readMessage,
  recipientCount,
  routeRecipient,
  SESSION_TOO_LONG,
  storeMessage,
  type DataContext,
  type RcptContext,
  type SessionState,
} from './stages.js';

/** A RCPT decision reads one or two Redis keys; reading, checking and storing DATA may take DNS time. */
const RCPT_TIMEOUT_MS = 5_000;
const DATA_TIMEOUT_MS = 60_000;

const routeKey = (route: Route): string =>
  route.kind === 'inbox'
    ? `i ${route.inbox_id}`
    : route.kind === 'report'
      ? `r ${route.message_id}`
      : `u ${route.target.messageId}`;

/** The distinct routes of the envelope's recipients (several addresses may reach one inbox). */
function envelopeRoutes(session: SMTPServerSession, known: Map<string, Route>): Route[] {
  const distinct = new Map<string, Route>();
  for (const { address } of session.envelope.rcptTo) {
    const route = known.get(address);
    if (route) distinct.set(routeKey(route), route);
  }
  return [...distinct.values()];
}

/** Counts the verdict a command is answered with (continue, at connect, admits the session). */
function counted(command: 'connect' | 'rcpt' | 'data', verdict: Verdict): Verdict {
  countSmtpVerdict(command, verdict.kind === 'continue' ? 'accept' : verdict.kind);
  return verdict;
}

const rcptStages: Stage<RcptContext>[] = [recipientCount, routeRecipient];
const dataStages: Stage<DataContext>[] = [readMessage, storeMessage];

export async function startSmtp(rt: Runtime, options: { port: number; host: string }): Promise<SmtpFrontEnd> {
  const config = rt.config;
  const limits = config.smtpSession;
  // Per open session: its address, unknown recipients, and the route each accepted RCPT address resolved
  // to. What a message is delivered to is read at DATA from smtp-server's own envelope: RSET, EHLO or a
  // new MAIL FROM empty it, and a RCPT that timed out (451) never enters it, even if its stage finishes later.
  const sessions = new Map<string, SessionState & { timer: NodeJS.Timeout }>();
  const perAddress = new Map<string, number>();
  const resolver = mailauthResolver(config, () => rt.clock.now());
  const logError = (error: unknown) =>
    rt.log.error('smtp stage failed', { error: error instanceof Error ? error.message : String(error) });
  const tls = readSmtpTls(config);

  /** Ends a session from our side, whatever it is doing: the 421 closes it (smtp-server). */
  const cut = (id: string, verdict: Verdict) => {
    const reply = smtpReply(verdict)!;
    for (const connection of server.connections)
      if (connection.session.id === id) connection.send(reply.responseCode, reply.message);
  };

  const server = new PromptSmtpServer({
    name: config.mxHost,
    banner: 'Mailbox',
    logger: false,
    size: config.smtpMessage.bytes,
    authOptional: true,
    // The peer's name is not used (the verdicts read its IP and HELO): no PTR query per connection.
    disableReverseLookup: true,
    disabledCommands: tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    hideSTARTTLS: !tls,
    ...(tls ?? {}),
    onConnect(session, callback) {
      const fromAddress = perAddress.get(session.remoteAddress) ?? 0;
      const verdict = counted('connect', connectLimits({ total: sessions.size, fromAddress }, limits));
      if (verdict.kind !== 'continue') return callback(smtpReply(verdict));
      perAddress.set(session.remoteAddress, fromAddress + 1);
      // Socket guards measure real time (timers), not the injected clock of business rules.
      const timer = setTimeout(() => cut(session.id, SESSION_TOO_LONG), limits.maxMs).unref();
      sessions.set(session.id, { address: session.remoteAddress, unknowns: 0, routes: new Map(), timer });
      smtpSessionOpened();
      callback();
    },
    onRcptTo(address, session, callback) {
      const ctx: RcptContext = {
        rt,
        address: address.address,
        accepted: session.envelope.rcptTo.length,
        state: sessions.get(session.id)!,
        limits,
      };
      void runChain(rcptStages, ctx, RCPT_TIMEOUT_MS, logError).then((verdict) =>
        answer(counted('rcpt', verdict), callback),
      );
    },
    onData(stream, session, callback) {
      const state = sessions.get(session.id)!;
      const facts = {
        ip: session.remoteAddress,
        helo: session.hostNameAppearsAs || session.remoteAddress,
        mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
        mta: config.mxHost,
        resolver,
      };
      const ctx: DataContext = {
        rt,
        stream,
        facts,
        routes: envelopeRoutes(session, state.routes),
        limits: config.smtpMessage,
        parsed: null,
      };
      // The envelope is spent whatever the verdict: a next MAIL FROM in this session starts afresh.
      state.routes.clear();
      void runChain(dataStages, ctx, DATA_TIMEOUT_MS, logError).then((verdict: Verdict) => {
        // A stage that gave up early leaves bytes unread: drain them so the session can answer.
        if (!stream.readableEnded) stream.resume();
        const reply = smtpReply(counted('data', verdict));
        if (reply) callback(reply);
        else if (stream.readableEnded) callback(null);
        else stream.once('end', () => callback(null));
      });
      // Listening after the chain, whose reader listens at once: no chunk flows before both do.
      const started = performance.now();
      let bytes = 0;
      const watchRate = (chunk: Buffer) => {
        bytes += chunk.length;
        if (!dataTooSlow(bytes, performance.now() - started, limits)) return;
        stream.off('data', watchRate);
        cut(session.id, DATA_TOO_SLOW);
      };
      stream.on('data', watchRate);
    },
    onClose(session) {
      const state = sessions.get(session.id);
      if (!state) return;
      clearTimeout(state.timer);
      sessions.delete(session.id);
      smtpSessionClosed();
      const left = perAddress.get(state.address)! - 1;
      if (left) perAddress.set(state.address, left);
      else perAddress.delete(state.address);
    },
  });
  return listenSmtp(rt, server, 'smtp server', options);
}
