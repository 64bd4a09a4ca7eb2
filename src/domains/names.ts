/** Domain names and inbox usernames: what is well formed, and what is reserved. */
import { domainToASCII } from 'node:url';
import { MailboxError } from '../errors.js';

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** A lowercase domain as stored: an internationalised name in punycode, an ASCII one as is. */
export const asciiDomain = (domain: string): string => (/^[\x00-\x7f]*$/.test(domain) ? domain : domainToASCII(domain));

/**
 * The ASCII form of a domain given by a caller: trimmed, lowercased, trailing dot dropped, an
 * internationalised name turned to punycode (`exemple-café.fr` -> `xn--exemple-caf-...fr`). At least two
 * labels, each 1..63 letters, digits or inner hyphens, at most 253 characters, a TLD that is not numeric.
 */
export function normaliseDomain(input: string, parameter = 'domain'): string {
  const raw = input.trim().toLowerCase().replace(/\.$/, '');
  const ascii = asciiDomain(raw);
  const labels = ascii.split('.');
  const valid =
    ascii.length > 0 &&
    ascii.length <= 253 &&
    labels.length >= 2 &&
    labels.every((label) => LABEL.test(label)) &&
    !/^[0-9]+$/.test(labels[labels.length - 1]!);
  if (!valid) {
    throw new MailboxError(
      'invalid_argument',
      { parameter },
      {
        reason: 'un nom de domaine complet est attendu (exemple.fr, envoi.exemple.fr), au plus 253 caractères.',
      },
    );
  }
  return ascii;
}

/** True when `domain` is `parent` or one of its subdomains. */
export const isWithin = (domain: string, parent: string): boolean => domain === parent || domain.endsWith(`.${parent}`);

/** Addresses that belong to the mail system itself (RFC 2142 and habit), refused on every domain. */
const RESERVED_EVERYWHERE = [
  'postmaster',
  'abuse',
  'hostmaster',
  'webmaster',
  'mailer-daemon',
  'mailerdaemon',
  'root',
  'admin',
  'administrator',
  'noreply',
  'no-reply',
  'donotreply',
  'do-not-reply',
  'bounce',
  'bounces',
  'unsubscribe',
  'security',
  'nobody',
];

/**
 * On the common domain, names a person could take for the service itself, or that would be worth
 * squatting: refused there, free on a space's own domain.
 */
const RESERVED_ON_COMMON = [
  'support',
  'help',
  'helpdesk',
  'info',
  'contact',
  'billing',
  'sales',
  'team',
  'hello',
  'mail',
  'mailbox',
  'email',
  'www',
  'ftp',
  'smtp',
  'imap',
  'pop',
  'mx',
  'api',
  'system',
  'service',
  'services',
  'staff',
  'official',
  'legal',
  'privacy',
  'compliance',
  'dmarc',
  'dkim',
  'spf',
  'ssl',
  'tls',
  'cert',
  'verify',
  'verification',
  'account',
  'accounts',
  'owner',
  'operator',
  'moderator',
  'status',
  'news',
  'newsletter',
  'marketing',
  'press',
  'jobs',
  'careers',
  'test',
  'example',
  'null',
  'void',
  'daemon',
  'list',
  'lists',
  'listserv',
  'majordomo',
  'usenet',
  'uucp',
  'abuse-reports',
  'fraud',
  'phishing',
  'spam',
  'report',
  'reports',
  'feedback',
  'sysadmin',
  'it',
  'ops',
  'devops',
  'dev',
  'payments',
  'invoice',
  'invoices',
];

const reservedEverywhere = new Set(RESERVED_EVERYWHERE);
const reservedOnCommon = new Set(RESERVED_ON_COMMON);

const COMMON_USERNAME = { min: 3, max: 32 } as const;

/**
 * The rules of create_inbox's `username` beyond its character set (checked by the schema): no dot at
 * either end nor two in a row, 3 to 32 characters on the common domain, and not a reserved name.
 */
export function checkUsername(username: string, onCommonDomain: boolean): void {
  if (/^\.|\.$|\.\./.test(username)) {
    throw new MailboxError(
      'invalid_argument',
      { parameter: 'username' },
      { reason: 'pas de point au début, à la fin, ni deux de suite.' },
    );
  }
  if (onCommonDomain && (username.length < COMMON_USERNAME.min || username.length > COMMON_USERNAME.max)) {
    throw new MailboxError(
      'invalid_argument',
      { parameter: 'username' },
      {
        reason: `sur le domaine commun, de ${COMMON_USERNAME.min} à ${COMMON_USERNAME.max} caractères.`,
      },
    );
  }
  if (reservedEverywhere.has(username) || (onCommonDomain && reservedOnCommon.has(username))) {
    throw new MailboxError('reserved_username');
  }
}
