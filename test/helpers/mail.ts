/**
 * Received mail as the SMTP front end hands it to receiveInbound, and outgoing mail for delivery tests: a message as the send worker would hand it over (its id, Message-ID
 * on the sending domain, VERP return path, unsubscribe link signed for the space), a runtime variant
 * with another OUTBOUND, and what checks a received message: DKIM with mailauth against the test DNS
 * server, the signed header list, the header lines as they came.
 */
import { Resolver } from 'node:dns/promises';
import { dkimVerify } from 'mailauth';
import type { InboundMail } from '../../actors/inbound.js';
import type { Config } from '../../src/config.js';
import { verpReturnPath } from '../../src/delivery/mime.js';
import type { OutgoingMail } from '../../src/delivery/types.js';
import { unsubscribeLink } from '../../src/delivery/unsubscribe.js';
import type { Runtime } from '../../src/runtime.js';
import type { TestDns } from './dns.js';

/** A received mail: plain text from `from`, no name, nothing cited, no file, no raw source, unless `fields` says. */
export const receivedMail = (
  fields: Pick<InboundMail, 'from' | 'subject' | 'text'> & Partial<InboundMail>,
): InboundMail => ({
  from_name: '',
  reply_to: '',
  html: '',
  message_id_header: '',
  in_reply_to: '',
  references: [],
  automatic: false,
  auth_results: {},
  attachments: [],
  source: null,
  ...fields,
});

/** A received mail by its three usual fields, the others as `extra` says. */
export const mailFrom = (from: string, subject: string, text: string, extra: Partial<InboundMail> = {}): InboundMail =>
  receivedMail({ from, subject, text, ...extra });

export interface MailParts {
  spaceId: string;
  domain: string;
  to?: string;
  test?: boolean;
}

export function outgoing(rt: Runtime, parts: MailParts, overrides: Partial<OutgoingMail> = {}): OutgoingMail {
  const id = rt.ids.next('message');
  const to = parts.to ?? 'marie@destinataire.test';
  return {
    id,
    messageIdHeader: `<${id}@${parts.domain}>`,
    from: { address: `ventes@${parts.domain}`, name: 'Équipe Ventes' },
    to: { address: to, name: 'Marie Curie' },
    cc: [],
    bcc: [],
    replyTo: null,
    subject: 'Proposition de rendez-vous',
    text: 'Bonjour Marie,\n\nÊtes-vous disponible jeudi ?\n',
    html: null,
    inReplyTo: null,
    references: [],
    unsubscribe: unsubscribeLink(rt, parts.spaceId, id, to, parts.test ?? false),
    footer: true,
    returnPath: verpReturnPath(parts.spaceId, id, parts.domain),
    dkim: null,
    ...overrides,
  };
}

/** The same runtime (Redis, clock, ids) with other settings: one service, several transports. */
export const withConfig = (rt: Runtime, config: Partial<Config>): Runtime => ({
  ...rt,
  config: { ...rt.config, ...config },
});

/** DKIM verification of a received message, its keys read from the test DNS server. */
export async function verifyDkim(dns: TestDns, raw: Buffer) {
  const resolver = new Resolver();
  resolver.setServers([dns.address]);
  const result = await dkimVerify(raw, {
    resolver: (name: string, type: string) => resolver.resolve(name, type) as Promise<string[][]>,
  });
  return result.results;
}

/** Header lines as received, unfolded, lowercase names, in order. */
export function headerLines(raw: Buffer): { name: string; value: string }[] {
  const head = raw.toString('utf8').split(/\r?\n\r?\n/)[0]!;
  return head
    .replace(/\r?\n[ \t]+/g, ' ')
    .split(/\r?\n/)
    .map((line) => ({
      name: line.slice(0, line.indexOf(':')).toLowerCase(),
      value: line.slice(line.indexOf(':') + 1).trim(),
    }));
}

export const header = (raw: Buffer, name: string): string | undefined =>
  headerLines(raw).find((h) => h.name === name)?.value;

/** The `h=` tag of the message's DKIM-Signature: the header fields the signature covers. */
export function signedHeaders(raw: Buffer): string[] {
  const signature = header(raw, 'dkim-signature') ?? '';
  const tag = /(?:^|;)\s*h=([^;]+)/.exec(signature)?.[1] ?? '';
  return tag
    .split(':')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
}
