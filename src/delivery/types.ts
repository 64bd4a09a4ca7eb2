/**
 * What the delivery layer is given and what it answers. The queue (actors/delivery.ts, the send worker)
 * decides when a message leaves; this layer only builds and hands over the MIME message.
 */
import type { KeyObject } from 'node:crypto';
import type { DeliveryResult } from '../../actors/delivery.js';

/** The outcome of one attempt: the delivery actor's input, so it owns the shape. */
export type { DeliveryResult };

export interface Mailbox {
  address: string;
  name: string | null;
}

export interface DkimKey {
  domainName: string;
  keySelector: string;
  /** Opened (src/crypto.ts) and parsed (loadDkimKey, src/delivery/mime.ts) before signing; never logged. */
  privateKey: KeyObject;
}

export interface OutgoingMail {
  /** Our id (`msg_...`), also in the `X-Mailbox-Message-Id` header. */
  id: string;
  /** The Message-ID header value, `<msg_...@sending-domain>`: the same on every attempt. */
  messageIdHeader: string;
  from: Mailbox;
  to: Mailbox;
  /** Copies: `cc` in the Cc header, `bcc` in the envelope only (never in a header). */
  cc: Mailbox[];
  bcc: Mailbox[];
  replyTo: string | null;
  subject: string;
  text: string;
  html: string | null;
  /** Threading: the Message-ID this answers, and the chain before it. */
  inReplyTo: string | null;
  references: string[];
  /**
   * One-click unsubscribe (RFC 8058): the https link and the mailto address. `{{unsubscribe_url}}` in
   * text or html is replaced by the link; without it, and while `footer` is true, a short French
   * mention with the link is appended.
   */
  unsubscribe: { url: string; mailto: string } | null;
  footer: boolean;
  /** Envelope sender (VERP): bounces come back to it and name the message. */
  returnPath: string;
  /** Signs with the first key; DKIM covers From, To, Cc, Subject, Date, Message-ID, List-Unsubscribe, List-Unsubscribe-Post. */
  dkim: DkimKey | null;
  /** Free headers of ours (X-...). */
  headers?: Record<string, string>;
  /** Files, with their bytes read from the blob store. */
  attachments?: { filename: string | null; contentType: string; content: Buffer }[];
}

export interface Transport {
  readonly kind: 'outbox' | 'smtp' | 'direct';
  /**
   * Resolves with a DeliveryResult for every outcome of the network or the disk; rejects only for our
   * own faults (a DKIM key that does not load), which no retry would fix.
   */
  send(mail: OutgoingMail): Promise<DeliveryResult>;
  close(): Promise<void>;
}
