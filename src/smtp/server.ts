/**
 * The inbound SMTP front end (`mailbox serve --role smtp`, started by `all`): smtp-server on SMTP_PORT,
 * every command a short hook chain (src/smtp/chain.ts). RCPT TO is routed at once (src/smtp/routing.ts)
 * so unknown recipients get 550 there; DATA is read once through the parser and the authentication
 * checks (src/smtp/parse.ts), then each recipient's route stores it: a message in an inbox's thread, a
 * delivery report on the message it names, or an unsubscription. The 250 comes only after Redis wrote.
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import { receiveInbound } from '../../actors/inbound.js';
import { retireClaimOfDeleted } from '../../actors/inbox.js';
import { recordBounce, recordComplaint } from '../../actors/reports.js';
import { unsubscribeRecipient } from '../../actors/suppression.js';
import { MailboxError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import { ACCEPT, CONTINUE, reject, runChain, smtpReply, tempfail, type Stage, type Verdict } from './chain.js';
import { parseStream, type Parsed, type SessionFacts } from './parse.js';
import { parseReport } from './reports.js';
import { routeOf, type Route } from './routing.js';
import { mailauthResolver } from './dns.js';

/** Recipients per message: enough for any real conversation, too few for a spray. */
const MAX_RECIPIENTS = 50;
/** A RCPT decision reads one or two Redis keys; reading, checking and storing DATA may take DNS time. */
const RCPT_TIMEOUT_MS = 5_000;
const DATA_TIMEOUT_MS = 60_000;

export interface SmtpFrontEnd {
  port: number;
  close(): Promise<void>;
}

interface DataContext {
  stream: SMTPServerDataStream;
  session: SMTPServerSession;
  routes: Route[];
  parsed: Parsed | null;
}

const routeKey = (route: Route): string =>
  route.kind === 'inbox' ? `i ${route.inbox_id}` : route.kind === 'report' ? `r ${route.message_id}` : `u ${route.target.messageId}`;

/** A space or inbox erased since RCPT: that recipient's copy has nowhere to go, the others still do. */
const gone = (error: unknown): boolean => error instanceof MailboxError && error.code === 'not_found';

async function deliverReport(rt: Runtime, route: Extract<Route, { kind: 'report' }>, raw: Buffer): Promise<void> {
  const report = parseReport(raw);
  if (report?.kind === 'complaint') {
    await recordComplaint(rt, route.space_id, route.message_id, report.feedback_type);
  } else if (report?.kind === 'bounce') {
    // A report names one message (its VERP address), so its first failed recipient is that message's.
    const first = report.recipients[0]!;
    await recordBounce(rt, route.space_id, route.message_id, { status: first.status, code: first.code, hard: first.hard, diagnostic: first.diagnostic });
  }
  // Anything else sent to a return path (an auto-reply, a person answering the bounce address) is dropped.
}

/** Delivers to one recipient's route; false when its target was erased since RCPT. */
async function deliver(rt: Runtime, route: Route, parsed: Parsed): Promise<boolean> {
  try {
    if (route.kind === 'inbox') await receiveInbound(rt, route.space_id, { id: route.inbox_id, address: route.address }, parsed.mail);
    else if (route.kind === 'report') await deliverReport(rt, route, parsed.raw!);
    else if (!route.target.test) await unsubscribeRecipient(rt, route.target.spaceId, route.target.messageId, route.target.recipient);
    return true;
  } catch (error) {
    if (!gone(error)) throw error;
    if (route.kind === 'inbox') await retireClaimOfDeleted(rt, route.space_id, route.inbox_id);
    return false;
  }
}

const unknownAddress = () => reject('5.1.1 Adresse inconnue ici', 550);

/** The distinct routes of the envelope's recipients (several addresses may reach one inbox). */
function envelopeRoutes(session: SMTPServerSession, known: Map<string, Route> | undefined): Route[] {
  const distinct = new Map<string, Route>();
  for (const { address } of session.envelope.rcptTo) {
    const route = known?.get(address);
    if (route) distinct.set(routeKey(route), route);
  }
  return [...distinct.values()];
}

export async function startSmtp(rt: Runtime, options: { port: number; host: string }): Promise<SmtpFrontEnd> {
  const config = rt.config;
  // Per session, the route each accepted RCPT address resolved to. What a message is delivered to is
  // read at DATA from smtp-server's own envelope: RSET, EHLO or a new MAIL FROM empty it, and a RCPT
  // that timed out (451) never enters it, even if its stage finishes later.
  const routes = new Map<string, Map<string, Route>>();
  const resolver = mailauthResolver(config, () => rt.clock.now());
  const logError = (error: unknown) => rt.log.error('smtp stage failed', { error: error instanceof Error ? error.message : String(error) });
  const tls = config.smtpTls ? { key: readFileSync(config.smtpTls.keyFile), cert: readFileSync(config.smtpTls.certFile) } : null;

  const rcptStages: Stage<{ session: SMTPServerSession; address: string }>[] = [
    async ({ session }) => (session.envelope.rcptTo.length >= MAX_RECIPIENTS ? tempfail('4.5.3 Trop de destinataires pour un message', 452) : CONTINUE),
    async ({ session, address }) => {
      const route = await routeOf(rt, address);
      if (!route) return unknownAddress();
      const known = routes.get(session.id) ?? new Map<string, Route>();
      routes.set(session.id, known.set(address, route));
      return ACCEPT;
    },
  ];

  const dataStages: Stage<DataContext>[] = [
    async (ctx) => {
      const facts: SessionFacts = {
        ip: ctx.session.remoteAddress,
        helo: ctx.session.hostNameAppearsAs || ctx.session.remoteAddress,
        mailFrom: ctx.session.envelope.mailFrom ? ctx.session.envelope.mailFrom.address : '',
        mta: config.mxHost,
        resolver,
      };
      ctx.parsed = await parseStream(ctx.stream, facts, { keepRaw: ctx.routes.some((r) => r.kind === 'report'), maxBytes: config.smtpMaxBytes });
      return ctx.parsed ? CONTINUE : reject(`5.3.4 Message trop volumineux (au plus ${config.smtpMaxBytes} octets)`, 552);
    },
    async (ctx) => {
      let delivered = 0;
      for (const route of ctx.routes) if (await deliver(rt, route, ctx.parsed!)) delivered++;
      // Every recipient was erased between RCPT and DATA (a deleted inbox, a closed space): the sender
      // learns it, as at RCPT. With one of several erased, the message is taken for the others.
      return delivered ? ACCEPT : unknownAddress();
    },
  ];

  const server = new SMTPServer({
    name: config.mxHost,
    banner: 'Mailbox',
    logger: false,
    size: config.smtpMaxBytes,
    authOptional: true,
    // The peer's name is not used (the verdicts read its IP and HELO): no PTR query per connection.
    disableReverseLookup: true,
    disabledCommands: tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    hideSTARTTLS: !tls,
    ...(tls ?? {}),
    onRcptTo(address, session, callback) {
      runChain(rcptStages, { session, address: address.address }, RCPT_TIMEOUT_MS, logError).then((verdict) => callback(smtpReply(verdict)));
    },
    onData(stream, session, callback) {
      const ctx: DataContext = { stream, session, routes: envelopeRoutes(session, routes.get(session.id)), parsed: null };
      // The envelope is spent whatever the verdict: a next MAIL FROM in this session starts afresh.
      routes.delete(session.id);
      runChain(dataStages, ctx, DATA_TIMEOUT_MS, logError).then((verdict: Verdict) => {
        // A stage that gave up early leaves bytes unread: drain them so the session can answer.
        if (!stream.readableEnded) stream.resume();
        const reply = smtpReply(verdict);
        if (reply) callback(reply);
        else stream.readableEnded ? callback(null) : stream.once('end', () => callback(null));
      });
    },
    onClose(session) {
      routes.delete(session.id);
    },
  });
  server.on('error', (error: Error) => rt.log.warn('smtp server error', { error: error.message }));
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return {
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
