/**
 * The stages of an inbound SMTP session, in the order a session meets them, each a named function
 * with a closed outcome (src/smtp/chain.ts) that src/smtp/server.ts strings into its chains:
 * connect limits, RCPT (recipient count, routing, unknown recipients slowed down), DATA (its rate,
 * the message's bounds, reading, storing per recipient). They take plain contexts, so each is tested
 * without a socket (test/inbound/stages.test.ts).
 */
import type { Readable } from 'node:stream';
import { journalFiltered, readFilters } from '../../actors/filter.js';
import { receiveInbound, type InboundMail } from '../../actors/inbound.js';
import { retireClaimOfDeleted } from '../../actors/inbox.js';
import { recordBounce, recordComplaint } from '../../actors/reports.js';
import { unsubscribeRecipient } from '../../actors/suppression.js';
import type { MessageLimits, SessionLimits } from '../config.js';
import type { TextUnavailable } from '../record-schemas.js';
import { MailboxError } from '../errors.js';
import { fromAuthenticated, receiveRefusal, type Filter } from '../mail/filters.js';
import type { Runtime } from '../runtime.js';
import type { Breach } from './bounds.js';
import { ACCEPT, CONTINUE, reject, tempfail, type Verdict } from './chain.js';
import { parseStream, REPORT_RAW_MAX, type Parsed, type SessionFacts } from './parse.js';
import { parseReport } from './reports.js';
import { routeOf, type Route } from './routing.js';

/** Recipients per message: enough for any real conversation, too few for a spray. */
export const MAX_RECIPIENTS = 50;

/** What the server keeps of one open session. */
export interface SessionState {
  /** The client's IP address. */
  address: string;
  /** Unknown recipients asked for so far. */
  unknowns: number;
  /** The route each accepted RCPT address resolved to. */
  routes: Map<string, Route>;
}

/** Why the server cuts a session itself (421, then it closes). */
export const SESSION_TOO_LONG = tempfail(
  '4.7.0 Session trop longue, reconnectez-vous / session time limit reached',
  421,
);
export const DATA_TOO_SLOW = tempfail('4.7.0 Message transmis trop lentement / data sent too slowly', 421);

/** Connect: a new session fits beside the open ones, in all and from its address. */
export function connectLimits(open: { total: number; fromAddress: number }, limits: SessionLimits): Verdict {
  if (open.total >= limits.connections)
    return tempfail('4.7.0 Trop de connexions, réessayez plus tard / too many connections, try again later', 421);
  if (open.fromAddress >= limits.connectionsPerAddress) {
    return tempfail('4.7.0 Trop de connexions depuis votre adresse / too many connections from your address', 421);
  }
  return CONTINUE;
}

export interface RcptContext {
  rt: Runtime;
  address: string;
  /** Recipients already accepted in this transaction. */
  accepted: number;
  state: SessionState;
  limits: SessionLimits;
}

/** RCPT: at most MAX_RECIPIENTS per message (452: the sender sends the rest in another transaction). */
export async function recipientCount(ctx: RcptContext): Promise<Verdict> {
  return ctx.accepted >= MAX_RECIPIENTS
    ? tempfail('4.5.3 Trop de destinataires pour un message / too many recipients', 452)
    : CONTINUE;
}

const unknownAddress = (delayMs = 0) => reject('5.1.1 Adresse inconnue ici / unknown address', 550, delayMs);

/**
 * An unknown recipient, the `count`th of its session: answered 550 later each time (nothing for the
 * first, a typo), and the one that reaches the limit closes the session (421): guessing addresses
 * costs the guesser time, not us.
 */
export function unknownRecipient(count: number, limits: SessionLimits): Verdict {
  const delayMs = (count - 1) * limits.unknownRecipientDelayMs;
  if (count >= limits.unknownRecipients)
    return tempfail('4.7.0 Trop de destinataires inconnus / too many unknown recipients', 421, delayMs);
  return unknownAddress(delayMs);
}

/** RCPT: the address goes somewhere (src/smtp/routing.ts), else it is unknown (550, no backscatter). */
export async function routeRecipient(ctx: RcptContext): Promise<Verdict> {
  const route = await routeOf(ctx.rt, ctx.address);
  if (!route) return unknownRecipient(++ctx.state.unknowns, ctx.limits);
  ctx.state.routes.set(ctx.address, route);
  return ACCEPT;
}

/** DATA: a sender slower than the least rate, once the grace time passed, holds a session for nothing. */
export function dataTooSlow(bytes: number, elapsedMs: number, limits: SessionLimits): boolean {
  return elapsedMs > limits.dataGraceMs && bytes * 1000 < limits.dataMinBytesPerSecond * elapsedMs;
}

const BREACHES: Record<Breach['limit'], string> = {
  bytes: 'Message trop volumineux (au plus {max} octets) / message too big',
  headerBytes: 'En-tête trop long (au plus {max} octets) / header field too long',
  headerSectionBytes: 'En-têtes trop volumineux (au plus {max} octets) / header section too big',
  headers: "Trop d'en-têtes (au plus {max}) / too many header fields",
  addressesPerHeader: "Trop d'adresses dans un en-tête (au plus {max}) / too many addresses in one header field",
  mimeDepth: 'Parties MIME trop imbriquées (au plus {max} niveaux) / MIME parts nested too deep',
  mimeParts: 'Trop de parties MIME (au plus {max}) / too many MIME parts',
};

/** DATA: a message past one of its bounds can never be taken: a 5xx, so the sender stops retrying. */
export function refusalOf(breach: Breach): Verdict {
  const text = BREACHES[breach.limit].replace('{max}', String(breach.max));
  const tooBig = breach.limit === 'bytes' || breach.limit === 'headerBytes' || breach.limit === 'headerSectionBytes';
  return tooBig ? reject(`5.3.4 ${text}`, 552) : reject(`5.6.0 ${text}`, 554);
}

const UNREADABLE: Record<TextUnavailable, string> = {
  depth_limit: 'trop imbriqué / nested too deep',
  time_limit: 'trop long à lire / too long to read',
  memory_limit: 'trop de mémoire pour le lire / too much memory to read',
  unreadable: 'illisible / could not be parsed',
};

/**
 * DATA: a message whose MIME could not be read within the limits on untrusted content (docs/operations.md)
 * never will be: a 5xx, never a 4xx that has the sender retry it for days.
 */
export const unreadable = (reason: TextUnavailable): Verdict => reject(`5.6.0 Message ${UNREADABLE[reason]}`, 554);

export interface DataContext {
  rt: Runtime;
  stream: Readable;
  facts: SessionFacts;
  /** The distinct routes of the envelope's recipients. */
  routes: Route[];
  limits: MessageLimits;
  parsed: Parsed | null;
}

/** DATA: reads the message within its bounds (src/smtp/bounds.ts) into the parser and the checks. */
export async function readMessage(ctx: DataContext): Promise<Verdict> {
  // Mail to an inbox keeps its whole source (bounded by SMTP_MAX_BYTES); a report only its head.
  const rawMax = ctx.routes.some((route) => route.kind === 'inbox')
    ? Infinity
    : ctx.routes.some((route) => route.kind === 'report')
      ? REPORT_RAW_MAX
      : 0;
  const read = await parseStream(ctx.stream, ctx.facts, { rawMax, limits: ctx.limits, content: ctx.rt.config.content });
  if ('breach' in read) return refusalOf(read.breach);
  if ('unreadable' in read) return unreadable(read.unreadable);
  ctx.parsed = read;
  return CONTINUE;
}

/** A space or inbox erased since RCPT: that recipient's copy has nowhere to go, the others still do. */
const gone = (error: unknown): boolean => error instanceof MailboxError && error.code === 'not_found';

async function deliverReport(rt: Runtime, route: Extract<Route, { kind: 'report' }>, raw: Buffer): Promise<void> {
  const report = parseReport(raw);
  if (report?.kind === 'complaint') {
    await recordComplaint(rt, route.space_id, route.message_id, report.feedback_type);
  } else if (report?.kind === 'bounce') {
    // A report names one message (its VERP address); each failed recipient is one of its addresses (`to`, a cc, a bcc).
    for (const failed of report.recipients) {
      await recordBounce(rt, route.space_id, route.message_id, {
        recipient: failed.recipient,
        status: failed.status,
        code: failed.code,
        hard: failed.hard,
        diagnostic: failed.diagnostic,
      });
    }
  }
  // Anything else sent to a return path (an auto-reply, a person answering the bounce address) is dropped.
}

/** A space's filters, read once per message however many of its inboxes it goes to. */
type FiltersOf = (spaceId: string) => Promise<Filter[]>;

function filtersOnce(rt: Runtime): FiltersOf {
  const read = new Map<string, Promise<Filter[]>>();
  return (spaceId) => {
    let filters = read.get(spaceId);
    if (!filters) read.set(spaceId, (filters = readFilters(rt, spaceId)));
    return filters;
  };
}

/**
 * The filter that refuses this message for an inbox, or null (src/mail/filters.ts). A refusal is
 * journaled for the inbox; nothing is stored and no event is written.
 */
async function filtered(
  rt: Runtime,
  route: Extract<Route, { kind: 'inbox' }>,
  mail: InboundMail,
  envelope: string,
  filtersOf: FiltersOf,
): Promise<boolean> {
  const filters = await filtersOf(route.space_id);
  if (!filters.length) return false;
  const sender = {
    from: mail.from,
    envelope,
    authenticated: fromAuthenticated(mail.auth_results, mail.from, envelope),
  };
  const refusal = receiveRefusal(filters, route.inbox_id, sender);
  if (refusal)
    await journalFiltered(
      rt,
      route.space_id,
      route.inbox_id,
      { from: mail.from, envelope_from: envelope, subject: mail.subject },
      refusal,
    );
  return refusal !== null;
}

type Outcome = 'delivered' | 'gone' | 'filtered';

/** Delivers to one recipient's route: `gone` when its target was erased since RCPT, `filtered` when a filter refused it. */
async function deliver(
  rt: Runtime,
  route: Route,
  parsed: Parsed,
  envelope: string,
  filtersOf: FiltersOf,
): Promise<Outcome> {
  try {
    if (route.kind === 'inbox') {
      // The filters are read in the tick the thread lookup reads in: one round trip to Redis for both.
      const admitted = filtered(rt, route, parsed.mail, envelope, filtersOf).then((refused) => !refused);
      const received = await receiveInbound(
        rt,
        route.space_id,
        { id: route.inbox_id, address: route.address },
        { ...parsed.mail, source: parsed.raw },
        admitted,
      );
      if (!received) return 'filtered';
    } else if (route.kind === 'report') await deliverReport(rt, route, parsed.raw!);
    else if (!route.target.test)
      await unsubscribeRecipient(rt, route.target.spaceId, route.target.messageId, route.target.recipient);
    return 'delivered';
  } catch (error) {
    if (!gone(error)) throw error;
    if (route.kind === 'inbox') await retireClaimOfDeleted(rt, route.space_id, route.inbox_id);
    return 'gone';
  }
}

/**
 * DATA: stores the message for each recipient's route. Every recipient erased between RCPT and DATA
 * (a deleted inbox, a closed space): the sender learns it, as at RCPT; none delivered and at least one
 * refused by a filter: 550 5.7.1. With one delivered, the message is taken (for it).
 */
export async function storeMessage(ctx: DataContext): Promise<Verdict> {
  const outcomes: Outcome[] = [];
  const filtersOf = filtersOnce(ctx.rt);
  for (const route of ctx.routes)
    outcomes.push(await deliver(ctx.rt, route, ctx.parsed!, ctx.facts.mailFrom, filtersOf));
  if (outcomes.includes('delivered')) return ACCEPT;
  return outcomes.includes('filtered')
    ? reject('5.7.1 Message refusé par le destinataire / rejected by recipient policy', 550)
    : unknownAddress();
}
