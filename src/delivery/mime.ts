/**
 * An OutgoingMail as the MIME bytes that leave: headers, text and html parts with the unsubscribe link
 * placed, then the DKIM signature. Every transport sends these same bytes (the outbox file adds only
 * the Return-Path line), and the envelope sender is the VERP return path built here.
 */
import { createPrivateKey, type KeyObject } from 'node:crypto';
import DKIM from 'nodemailer/lib/dkim/index.js';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import type Mail from 'nodemailer/lib/mailer/index.js';
import { idPattern } from '../ids.js';
import { escapeHtml } from '../texts.js';
import type { DkimKey, OutgoingMail } from './types.js';

/**
 * Headers the DKIM signature covers (those present in the message; nodemailer leaves absent ones out of
 * `h=`). Both unsubscribe headers are signed (docs/contract.md, Decision 9): a relay cannot swap the link, and
 * mailbox providers honour one-click unsubscribe only when List-Unsubscribe-Post is covered (RFC 8058).
 */
const DKIM_SIGNED_HEADERS = [
  'from',
  'to',
  'cc',
  'subject',
  'date',
  'message-id',
  'reply-to',
  'in-reply-to',
  'references',
  'list-unsubscribe',
  'list-unsubscribe-post',
  'mime-version',
  'content-type',
] as const;

// ---- VERP return path ---------------------------------------------------------------------------

/**
 * The envelope sender of a message: `bounces+<space id>.<message id>@<sending domain>`. A bounce comes
 * back to it and names the message without any lookup (the space first: its key prefix). Ids are
 * lowercase base32, so a server that folds the local part's case changes nothing; the local part stays
 * under the 64 octets of RFC 5321 (57). `bounces` is a username no inbox can take (src/domains/names.ts).
 */
export const verpReturnPath = (spaceId: string, messageId: string, domain: string): string =>
  `bounces+${spaceId}.${messageId}@${domain}`;

const SPACE_ID = new RegExp(idPattern('space').slice(1, -1));
const MESSAGE_ID = new RegExp(idPattern('message').slice(1, -1));
const VERP = new RegExp(`^bounces\\+(${SPACE_ID.source})\\.(${MESSAGE_ID.source})@[^@\\s]+$`);

/** The message a bounce's recipient names, or null for any other address (plain `bounces@`, forged shapes). */
export function parseVerp(address: string): { spaceId: string; messageId: string } | null {
  const match = VERP.exec(address.trim().toLowerCase());
  return match ? { spaceId: match[1]!, messageId: match[2]! } : null;
}

/** Every address the message is delivered to, `to` first: the copies and the blind copies are in the envelope only. */
export const envelopeOf = (mail: OutgoingMail): string[] => [
  mail.to.address,
  ...mail.cc.map((m) => m.address),
  ...mail.bcc.map((m) => m.address),
];

// ---- Bodies ---------------------------------------------------------------------------------------

const PLACEHOLDER = /\{\{\s*unsubscribe_url\s*\}\}/g;
/** The same without `g`: a global regex's test() keeps state between calls. */
const HAS_PLACEHOLDER = new RegExp(PLACEHOLDER.source);

const FOOTER_TEXT = (url: string) => `\n\n-- \nPour ne plus recevoir de messages de cet expéditeur : ${url}\n`;
const FOOTER_HTML = (url: string) =>
  `<p style="margin-top:24px;font-size:12px;color:#666">Pour ne plus recevoir de messages de cet expéditeur, <a href="${escapeHtml(url)}">désabonnez-vous</a>.</p>`;

/** The footer goes inside the document when it has a body element, else at its end. */
function appendHtml(html: string, fragment: string): string {
  const close = html.search(/<\/body\s*>(?![\s\S]*<\/body\s*>)/i);
  return close < 0 ? `${html}\n${fragment}` : `${html.slice(0, close)}${fragment}\n${html.slice(close)}`;
}

/**
 * The text and html as sent. Each part is judged alone, so every version a reader may see carries the
 * link: a part with `{{unsubscribe_url}}` gets the link there; a part without it gets the French footer
 * while `footer` is true (the correspondent has not written in the thread). Without a link (the
 * service's own mail, a message to the space's human), the placeholder is removed.
 */
function renderBodies(mail: OutgoingMail): { text: string; html: string | null } {
  const url = mail.unsubscribe?.url ?? null;
  const place = (body: string, escape: boolean): string =>
    body.replace(PLACEHOLDER, url ? (escape ? escapeHtml(url) : url) : '');
  let text = place(mail.text, false);
  let html = mail.html === null ? null : place(mail.html, true);
  if (url && mail.footer) {
    if (!HAS_PLACEHOLDER.test(mail.text)) text = `${text.replace(/\s+$/, '')}${FOOTER_TEXT(url)}`;
    if (html !== null && !HAS_PLACEHOLDER.test(mail.html!)) html = appendHtml(html, FOOTER_HTML(url));
  }
  return { text, html };
}

// ---- Message ---------------------------------------------------------------------------------------

const address = (box: { address: string; name: string | null }): Mail.Address | string =>
  box.name ? { name: box.name, address: box.address } : box.address;

/** RFC 2369 list of URIs, https first (RFC 8058 one-click needs it), mailto as the fallback. */
const listUnsubscribeHeader = (unsubscribe: { url: string; mailto: string }): string =>
  `<${unsubscribe.url}>, <mailto:${unsubscribe.mailto}>`;

const keyDoesNotLoad = (domainName: string, keySelector: string): Error =>
  new Error(`DKIM key of ${keySelector}._domainkey.${domainName} does not load`);

/**
 * A signing key from its PEM, parsed once: parsing an RSA PEM is three quarters of a signature's cost
 * (about 400 µs, against 300 for the signature with the parsed key), so a key used for many messages
 * (the operator's) is parsed once per process, a space's once per message.
 */
export function loadDkimKey(domainName: string, keySelector: string, pem: string): DkimKey {
  try {
    return { domainName, keySelector, privateKey: createPrivateKey(pem) };
  } catch {
    throw keyDoesNotLoad(domainName, keySelector);
  }
}

/** What nodemailer's signer puts first; a key that does not sign makes it send the message unsigned, without a word. */
const SIGNATURE_HEADER = Buffer.from('DKIM-Signature: ');

/** The message with its DKIM-Signature header, or a rejection when the key did not sign. */
function sign(raw: Buffer, key: DkimKey): Promise<Buffer> {
  const signer = new DKIM({
    domainName: key.domainName,
    keySelector: key.keySelector,
    // nodemailer hands the key unchanged to crypto's Sign.sign (lib/dkim/sign.js), which takes a KeyObject;
    // its types name the PEM only. Were that to change, the check below refuses the unsigned message.
    privateKey: key.privateKey as KeyObject & string,
    headerFieldNames: DKIM_SIGNED_HEADERS.join(':'),
  });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const output = signer.sign(raw);
    output.on('data', (chunk: Buffer) => chunks.push(chunk));
    output.on('error', reject);
    output.on('end', () => {
      const signed = Buffer.concat(chunks);
      if (signed.subarray(0, SIGNATURE_HEADER.length).equals(SIGNATURE_HEADER)) resolve(signed);
      else reject(keyDoesNotLoad(key.domainName, key.keySelector));
    });
  });
}

/** The message's bytes, DKIM-signed when the mail carries a key; `date` comes from the runtime's clock. */
export async function composeMessage(mail: OutgoingMail, date: Date): Promise<Buffer> {
  const { text, html } = renderBodies(mail);
  const headers: Record<string, string> = { 'X-Mailbox-Message-Id': mail.id, ...mail.headers };
  if (mail.unsubscribe) {
    headers['List-Unsubscribe'] = listUnsubscribeHeader(mail.unsubscribe);
    headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click';
  }
  const options: Mail.Options = {
    from: address(mail.from),
    to: address(mail.to),
    subject: mail.subject,
    date,
    messageId: mail.messageIdHeader,
    text,
    headers,
    // Our bodies are strings: nodemailer must never read a path or fetch a URL on a message's behalf.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
  if (mail.cc.length) options.cc = mail.cc.map(address);
  // No bcc option: the composer would keep it for the envelope, and the envelope is the transport's (envelopeOf).
  if (mail.replyTo) options.replyTo = mail.replyTo;
  if (html !== null) options.html = html;
  if (mail.inReplyTo) options.inReplyTo = mail.inReplyTo;
  if (mail.references.length) options.references = mail.references;
  if (mail.attachments?.length) {
    options.attachments = mail.attachments.map((file) => ({
      filename: file.filename ?? undefined,
      contentType: file.contentType,
      content: file.content,
      contentDisposition: 'attachment' as const,
    }));
  }
  const raw = await new MailComposer(options).compile().build();
  return mail.dkim ? sign(raw, mail.dkim) : raw;
}
