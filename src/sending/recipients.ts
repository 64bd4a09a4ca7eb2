/**
 * The forms a recipient is written in, as mail APIs take them: `address` or `Name <address>` (the name
 * may be quoted). One reader for every front end that takes recipients (send_email, reply_to_thread,
 * drafts, SMTP submission), so the same text means the same person everywhere (docs/tools.md, "Recipients").
 */
import { MailboxError } from '../errors.js';
import { isAddress } from './validate.js';

export interface Mailbox {
  /** Lowercase, checked by isAddress. */
  address: string;
  /** The display name, or null when none was given. */
  name: string | null;
}

/** A display name: at most this many characters (as `to_name`). */
const NAME_MAX_CHARS = 120;
/** At most this many addresses in `cc`, and as many in `bcc`. */
export const COPIES_MAX = 10;

const NAMED = /^(.*?)\s*<([^<>]*)>$/s;

const LINE_BREAK = /[\r\n\u0000]/;

/**
 * `address` or `Name <address>` (`"Name" <address>` too) as an address and a name; null when the text
 * is neither (a bad address, an empty `<>`, a name over NAME_MAX_CHARS characters, a line break).
 */
export function parseMailbox(text: string): Mailbox | null {
  if (LINE_BREAK.test(text)) return null;
  const trimmed = text.trim();
  const named = NAMED.exec(trimmed);
  const address = (named ? named[2]! : trimmed).trim().toLowerCase();
  if (!isAddress(address)) return null;
  let name = named ? named[1]!.trim() : '';
  if (name.length >= 2 && name.startsWith('"') && name.endsWith('"'))
    name = name.slice(1, -1).replace(/\\(.)/g, '$1').trim();
  if (name.length > NAME_MAX_CHARS || /[<>]/.test(name)) return null;
  return { address, name: name || null };
}

/** parseMailbox, or `invalid_argument` naming `parameter`. */
function recipientOf(text: string, parameter: string): Mailbox {
  const mailbox = parseMailbox(text);
  if (!mailbox) {
    throw new MailboxError(
      'invalid_argument',
      { parameter },
      {
        reason: LINE_BREAK.test(text)
          ? 'une seule ligne, sans retour à la ligne.'
          : `adresse e-mail invalide : « adresse » ou « Nom <adresse> » attendu (nom d'au plus ${NAME_MAX_CHARS} caractères).`,
      },
    );
  }
  return mailbox;
}

/** `to` with `to_name`: the name of the form and the one given apart must agree when both are there. */
export function mainRecipient(to: string, toName: string | null): Mailbox {
  const mailbox = recipientOf(to, 'to');
  if (toName === null || toName === '') return mailbox;
  if (mailbox.name !== null && mailbox.name !== toName) {
    throw new MailboxError(
      'invalid_argument',
      { parameter: 'to_name' },
      {
        reason: `deux noms différents pour le destinataire : « ${mailbox.name} » dans to, « ${toName} » dans to_name. Donnez-en un seul.`,
      },
    );
  }
  return { address: mailbox.address, name: toName };
}

/** A list of `cc` or `bcc`: each read by recipientOf (`cc[2]` named when one is wrong), at most COPIES_MAX. */
export function recipientList(texts: readonly string[] | undefined, parameter: 'cc' | 'bcc'): Mailbox[] {
  if (!texts) return [];
  if (texts.length > COPIES_MAX) {
    throw new MailboxError('invalid_argument', { parameter }, { reason: `au plus ${COPIES_MAX} adresses.` });
  }
  return texts.map((text, i) => recipientOf(text, `${parameter}[${i}]`));
}

/**
 * The copies of a message without repeats: an address already in `to`, or earlier in `cc` or `bcc`, is
 * written to once (the first place it appears wins: `to`, then `cc`, then `bcc`).
 */
export function distinctCopies(to: Mailbox, cc: Mailbox[], bcc: Mailbox[]): { cc: Mailbox[]; bcc: Mailbox[] } {
  const seen = new Set([to.address]);
  const keep = (list: Mailbox[]) => list.filter((m) => !seen.has(m.address) && (seen.add(m.address), true));
  return { cc: keep(cc), bcc: keep(bcc) };
}

/** The stored form of a list of copies: JSON of { address, name }, '' for none (actors/stored-records.ts leaves '' out). */
export const storedCopies = (list: Mailbox[]): string => (list.length ? JSON.stringify(list) : '');

/** A stored list of copies read back ('' or absent: none). */
export const copiesOf = (stored: string | undefined): Mailbox[] => (stored ? (JSON.parse(stored) as Mailbox[]) : []);
