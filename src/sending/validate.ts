/** Checks shared by send_email, reply_to_thread and update_draft, before anything reaches Redis. */
import { DateTime } from 'luxon';
import { MailboxError } from '../errors.js';
import { carriesSecret } from '../secrets.js';
import { PARIS } from '../texts.js';

/** A practical address check (RFC 5321 sizes, one @, a dotted domain); the recipient's MX decides the rest. */
const ADDRESS =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/** The one address check of the service (tools, CLI, suppressions). */
export const isAddress = (value: string): boolean => ADDRESS.test(value) && !value.includes('..');

export function parseAddress(value: string, parameter: string): string {
  const address = value.trim().toLowerCase();
  if (!isAddress(address)) {
    throw new MailboxError('invalid_argument', { parameter }, { reason: 'adresse e-mail invalide.' });
  }
  return address;
}

export function oneLine(value: string, parameter: string): string {
  if (/[\r\n\u0000]/.test(value))
    throw new MailboxError('invalid_argument', { parameter }, { reason: 'une seule ligne, sans retour à la ligne.' });
  return value.trim();
}

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
export const UNSUBSCRIBE_TOKEN = 'unsubscribe_url';
/** A message's subject: one line of at most this many characters (send_email, update_draft, create_campaign, a campaign's filled subject). */
export const SUBJECT_MAX_CHARS = 300;

/** Only `{{unsubscribe_url}}` may stay, and only in the body: a subject has no place for a link. */
export function checkPlaceholders(fields: {
  subject?: string | null;
  text?: string | null;
  html?: string | null;
}): void {
  for (const [name, value] of Object.entries(fields)) {
    if (!value) continue;
    for (const match of value.matchAll(PLACEHOLDER)) {
      if (name !== 'subject' && match[1] === UNSUBSCRIBE_TOKEN) continue;
      throw new MailboxError('unresolved_placeholder', { placeholder: match[0], parameter: name });
    }
  }
}

/** A key, a service secret or the start of a key of the space is never written in a message. */
export function checkSecrets(spaceId: string, fields: Record<string, string | null | undefined>): void {
  for (const [parameter, value] of Object.entries(fields)) {
    if (value && carriesSecret(value, spaceId)) throw new MailboxError('secret_in_message', { parameter });
  }
}

/** ISO 8601 with a zone, or Paris time without one (docs/contract.md, Decision 1). */
export function parseDate(value: string, parameter: string): number {
  const hasZone = /(Z|[+-]\d{2}:?\d{2})$/i.test(value.trim());
  const parsed = DateTime.fromISO(value.trim(), hasZone ? { setZone: true } : { zone: PARIS });
  if (!parsed.isValid)
    throw new MailboxError(
      'invalid_argument',
      { parameter },
      { reason: 'date ISO 8601 attendue (ou heure de Paris sans fuseau).' },
    );
  return parsed.toMillis();
}

const METADATA_MAX_CHARS = 8000;

export function checkMetadata(metadata: Record<string, unknown> | undefined): void {
  if (metadata && JSON.stringify(metadata).length > METADATA_MAX_CHARS) {
    throw new MailboxError(
      'invalid_argument',
      { parameter: 'metadata' },
      { reason: `au plus ${METADATA_MAX_CHARS} caractères une fois en JSON.` },
    );
  }
}
