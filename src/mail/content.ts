/**
 * What an inbound message means beyond its bytes: whether a robot sent it (RFC 3834 and the common
 * out-of-office habits), the new part of its text (reply_text, decisions.md 9), and the subject a
 * reply keeps (for the subject fallback of threading).
 */

/** The headers the automatic-reply test reads, lowercase names (mailparser's Map gives them so). */
export type HeaderLookup = (name: string) => string | null;

/**
 * Out-of-office subjects in French and English (the ones seen in practice), at the subject's start.
 * Whole phrases only: a person's "Re: Absence de facture" or "Re: En congé maternité ?" is no robot.
 */
const AUTOMATIC_SUBJECT =
  /^\s*(?:(?:re|tr|fwd?)\s*:\s*)*(?:auto(?:matic)?[ -]?(?:reply|response|answer)|autoreply|out of (?:the )?office|away from (?:the )?office|on vacation|réponse automatique|reponse automatique|message d'absence|absence du bureau|absente? (?:du bureau|jusqu)|en congés? jusqu|je suis absente?\b)/i;

/**
 * RFC 3834 `Auto-Submitted` (anything but `no`), the `X-Autoreply`/`X-Autorespond` markers of common
 * responders, `Precedence: bulk|auto_reply|list|junk`, or an out-of-office subject. An automatic
 * message never counts as the correspondent having written.
 */
export function isAutomatic(header: HeaderLookup, subject: string): boolean {
  const submitted = header('auto-submitted')?.trim().toLowerCase();
  if (submitted && !submitted.startsWith('no')) return true;
  if (header('x-autoreply') || header('x-autorespond') || header('x-autoresponder')) return true;
  const precedence = header('precedence')?.trim().toLowerCase();
  if (precedence && ['bulk', 'auto_reply', 'list', 'junk'].includes(precedence)) return true;
  return AUTOMATIC_SUBJECT.test(subject);
}

/** "Re: Tr: Fwd: Objet" and "objet" are one conversation: prefixes, case and spaces removed. */
export function subjectKey(subject: string): string {
  return subject
    .replace(/^\s*(?:(?:re|tr|fwd?|fw|aw|wg|sv|rif|r)\s*(?:\[\d+\])?\s*:\s*)+/i, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** Lines that open a quoted history: "Le lun. 23 nov. 2026 à 09:00, X a écrit :", "On ... wrote:", Outlook's separators. */
const QUOTE_OPENERS = [
  /^\s*le .{0,200}a écrit\s*:?\s*$/i,
  /^\s*on .{0,200}wrote\s*:?\s*$/i,
  /^\s*-{2,}\s*(?:original message|message d'origine|message original)\s*-{2,}\s*$/i,
  /^\s*_{8,}\s*$/,
  /^\s*(?:de|from)\s*:\s.+$/i,
];

/**
 * The new part of a reply: everything before the first quoted line (`>`), the first "... wrote:" /
 * "... a écrit :" opener (which may span two lines), an Outlook header block, or the `-- ` signature
 * delimiter. The whole text when nothing of that is found.
 */
export function replyText(text: string): string {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  let end = lines.length;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const joined = i + 1 < lines.length ? `${line} ${lines[i + 1]}` : line;
    if (line === '-- ' || line === '--' || /^\s*>/.test(line)) {
      end = i;
      break;
    }
    if (QUOTE_OPENERS.some((opener) => opener.test(line))) {
      end = i;
      break;
    }
    // A long opener wrapped by the sender's client: "Le ... <x@y>" then "a écrit :".
    if (/^\s*(?:a écrit|wrote)\s*:\s*$/i.test(lines[i + 1] ?? '') && QUOTE_OPENERS.slice(0, 2).some((opener) => opener.test(joined))) {
      end = i;
      break;
    }
  }
  return lines.slice(0, end).join('\n').trim();
}
