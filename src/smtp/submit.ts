/**
 * The stages of an SMTP submission session (docs/operations.md, "SMTP submission"), each a named
 * function with a closed outcome (src/smtp/chain.ts) that src/smtp/submission.ts strings into its
 * chains: AUTH with an API key as password (over TLS, unless the client is on loopback), MAIL FROM an
 * inbox the key may use (one request of the key's budget per message), DATA read within the bounds of
 * inbound mail, then handed to send_email, or to reply_to_thread when In-Reply-To names a message of
 * a thread of that inbox, through the dispatch every front end takes: every rule of the tools applies,
 * and a refusal answers with its code and French message (src/errors.ts smtpRefusal).
 */
import type { Readable } from 'node:stream';
import ipaddr from 'ipaddr.js';
import { threadOfMessageId } from '../../actors/inbound.js';
import { spaceOfAddress, visibleInbox } from '../../actors/inbox.js';
import { authenticate, type Access } from '../../actors/space.js';
import type { MessageLimits } from '../config.js';
import { MailboxError, smtpRefusal } from '../errors.js';
import { readMail, type MailContent } from '../mail/extract.js';
import type { Runtime } from '../runtime.js';
import { callTool } from '../tools/dispatch.js';
import { messageScanner } from './bounds.js';
import { ACCEPT, CONTINUE, reject, tempfail, type Verdict } from './chain.js';
import { readWithin } from './parse.js';
import { storedAddress } from './routing.js';
import { refusalOf, unreadable } from './stages.js';

/** A refusal of the service (a MailboxError) as the SMTP reply of its status; anything else is thrown on (the chain tempfails it). */
function refused(error: unknown): Verdict {
  if (!(error instanceof MailboxError)) throw error;
  const { code, text } = smtpRefusal(error);
  return code < 500 ? tempfail(text, code) : reject(text, code);
}

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 addresses. */
export const isLoopback = (address: string): boolean =>
  ipaddr.isValid(address) && ipaddr.process(address).range() === 'loopback';

export interface AuthContext {
  rt: Runtime;
  /** The password given: an API key. */
  secret: string;
  /** The session went through STARTTLS. */
  secure: boolean;
  /** The client's IP address. */
  address: string;
  access: Access | null;
}

/** AUTH: a key crosses the network only encrypted; a client on this machine may skip TLS. */
export async function encryptedOrLoopback(ctx: AuthContext): Promise<Verdict> {
  if (ctx.secure || isLoopback(ctx.address)) return CONTINUE;
  return reject('5.7.0 Chiffrez la session avec STARTTLS avant AUTH / must issue a STARTTLS command first', 530);
}

/** AUTH: the password is an API key of the space (OAuth access tokens are for /mcp only); a wrong one answers 535 5.7.8. */
export async function keyAccess(ctx: AuthContext): Promise<Verdict> {
  try {
    ctx.access = await authenticate(ctx.rt, ctx.secret);
    return ACCEPT;
  } catch (error) {
    return refused(error);
  }
}

export interface SenderContext {
  rt: Runtime;
  /** The key presented at AUTH. */
  secret: string;
  /** MAIL FROM ('' for a null sender). */
  address: string;
  access: Access | null;
  inbox: { id: string; address: string } | null;
}

/**
 * MAIL FROM: an inbox of the key's space that the key may use. The key is read again here, so each
 * message spends one request of its budget (429: 451, the client retries) and a key revoked since AUTH
 * sends nothing more.
 */
export async function senderInbox(ctx: SenderContext): Promise<Verdict> {
  try {
    const access = await authenticate(ctx.rt, ctx.secret);
    const claim = ctx.address ? await spaceOfAddress(ctx.rt, storedAddress(ctx.address)) : null;
    if (!claim || claim.state !== 'active' || claim.space_id !== access.space.id) {
      throw new MailboxError('not_found', null, {
        reason: `Aucune boîte de l'espace de cette clé n'a l'adresse « ${ctx.address} » (MAIL FROM) : écrivez depuis l'adresse d'une de ses boîtes.`,
      });
    }
    const inbox = await visibleInbox(ctx.rt, access, claim.inbox_id, { live: true });
    ctx.access = access;
    ctx.inbox = { id: inbox.id, address: inbox.address };
    return ACCEPT;
  } catch (error) {
    return refused(error);
  }
}

export interface SubmitContext {
  rt: Runtime;
  stream: Readable;
  access: Access;
  inbox: { id: string; address: string };
  /** The RCPT TO addresses. */
  envelope: string[];
  limits: MessageLimits;
  mail: MailContent | null;
  /** The text of the 250 once the message is written. */
  accepted: string | null;
}

/** DATA: the message within the bounds of inbound mail (SMTP_MAX_*), its MIME read in a content worker. */
export async function readSubmitted(ctx: SubmitContext): Promise<Verdict> {
  const read = await readWithin(ctx.stream, messageScanner(ctx.limits));
  if (read.breach) return refusalOf(read.breach);
  const content = await readMail(Buffer.concat(read.chunks, read.bytes), ctx.rt.config.content, ctx.limits.mimeParts);
  if (!content.ok) return unreadable(content.reason);
  ctx.mail = content.value;
  return CONTINUE;
}

interface Mailbox {
  address: string;
  name: string | null;
}

export interface Recipients {
  to: Mailbox;
  /** Visible copies: the other envelope recipients the To and Cc headers name. */
  cc: Mailbox[];
  /** Hidden copies: the envelope recipients no header names. */
  bcc: Mailbox[];
}

/**
 * Who a submitted message is for: the envelope (RCPT TO) decides who receives it, the headers only
 * how: `to` is the first To address among them (with its name), `cc` the other ones To or Cc names,
 * `bcc` the ones no header names.
 */
export function recipientsOf(headers: Pick<MailContent, 'to_list' | 'cc'>, envelope: string[]): Recipients {
  const named = new Map<string, Mailbox>();
  for (const mailbox of [...headers.to_list, ...headers.cc])
    if (!named.has(mailbox.address)) named.set(mailbox.address, mailbox);
  const delivered = [...new Set(envelope.map((address) => address.toLowerCase()))];
  const to = headers.to_list.find((mailbox) => delivered.includes(mailbox.address));
  if (!to) {
    throw new MailboxError(
      'invalid_argument',
      { parameter: 'To' },
      { reason: "l'en-tête To doit nommer un destinataire de l'enveloppe (RCPT TO)." },
    );
  }
  const others = delivered.filter((address) => address !== to.address);
  return {
    to,
    cc: others.filter((address) => named.has(address)).map((address) => named.get(address)!),
    bcc: others.filter((address) => !named.has(address)).map((address) => ({ address, name: null })),
  };
}

/** A part of the message as the sending tools take a file; a part without a name is named by its rank. */
const fileOf = (part: MailContent['attachments'][number], index: number) => ({
  filename: part.filename || `piece-jointe-${index + 1}`,
  content_type: part.content_type,
  content_base64: part.content.toString('base64'),
});

/** The longest idempotency key the sending tools take. */
const IDEMPOTENCY_KEY_MAX = 255;

/**
 * The body parameters of a submitted message. Its Message-ID is the idempotency key: a client that
 * sends it again (its 250 lost) gets the message already written, not a second one.
 */
function bodyOf(mail: MailContent): Record<string, unknown> {
  return {
    text: mail.text,
    ...(mail.html ? { html: mail.html } : {}),
    ...(mail.attachments.length ? { attachments: mail.attachments.map(fileOf) } : {}),
    ...(mail.message_id_header && mail.message_id_header.length <= IDEMPOTENCY_KEY_MAX
      ? { idempotency_key: mail.message_id_header }
      : {}),
  };
}

type Call = ['send_email' | 'reply_to_thread', Record<string, unknown>];

/**
 * The tool call a submitted message makes: reply_to_thread when it cites (`cited`) a thread of the
 * sending inbox whose correspondent is its `to` (the thread's subject then prevails), else send_email.
 * Copies go as `cc` and `bcc`, each judged as `to` is.
 */
function callOf(
  mail: MailContent,
  recipients: Recipients,
  inboxId: string,
  cited: { thread_id: string; contact: string } | null,
): Call {
  const { to } = recipients;
  const copies = {
    ...(recipients.cc.length ? { cc: recipients.cc.map(mailboxText) } : {}),
    ...(recipients.bcc.length ? { bcc: recipients.bcc.map(mailboxText) } : {}),
  };
  if (cited && cited.contact === to.address)
    return ['reply_to_thread', { thread_id: cited.thread_id, ...copies, ...bodyOf(mail) }];
  return [
    'send_email',
    {
      inbox_id: inboxId,
      to: to.address,
      ...(to.name ? { to_name: to.name } : {}),
      ...copies,
      subject: mail.subject,
      ...(mail.reply_to ? { reply_to: mail.reply_to } : {}),
      ...bodyOf(mail),
    },
  ];
}

/** A copy as the sending tools read it (`"Name" <address>`); a name they would not take is left out. */
const mailboxText = ({ address, name }: Mailbox): string =>
  name && !/[<>\r\n]/.test(name) ? `"${name.replace(/["\\]/g, '\\$&')}" <${address}>` : address;

/** DATA: the message written by its tool; From, Date and Message-ID are the service's, as for any send. */
export async function submitMessage(ctx: SubmitContext): Promise<Verdict> {
  const mail = ctx.mail!;
  try {
    const recipients = recipientsOf(mail, ctx.envelope);
    const cited = mail.in_reply_to
      ? await threadOfMessageId(ctx.rt, ctx.access.space.id, ctx.inbox.id, mail.in_reply_to)
      : null;
    const [tool, input] = callOf(mail, recipients, ctx.inbox.id, cited);
    const { output } = await callTool(ctx.rt, ctx.access, tool, input);
    const message = output.message as { id: string; status: string };
    ctx.accepted = `2.0.0 ${message.id} ${message.status}`;
    return ACCEPT;
  } catch (error) {
    return refused(error);
  }
}
