/**
 * What an inbound message means beyond its bytes: whether a robot sent it (RFC 3834 and the common
 * out-of-office habits), the new part of its text (reply_text, docs/contract.md, Decision 9), and the subject a
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

/**
 * Attributions that open a quoted history: "Le lun. 23 nov. 2026 à 09:00, X <x@y> a écrit :", "On ... wrote:".
 * A long one is wrapped over a few lines, by the sender's client or by the HTML-to-text step of an
 * HTML-only mail (80 columns), so it is looked for over up to ATTRIBUTION_LINES lines; it always
 * carries a date, which tells it apart from a sentence that merely starts with "Le".
 */
const ATTRIBUTIONS = [/^\s*le\s(?=.*\d).{0,400}a écrit\s*:?\s*$/i, /^\s*on\s(?=.*\d).{0,400}wrote\s*:?\s*$/i];
const ATTRIBUTION_LINES = 4;
/** The first line of any attribution: its first word, followed by a space or the line's end (wrapped there). */
const ATTRIBUTION_START = /^\s*(?:le|on)(?:\s|$)/i;

/** Lines that open a quoted history on their own: Outlook's separators and header block. */
const SEPARATORS = [
  /^\s*-{2,}\s*(?:original message|message d'origine|message original)\s*-{2,}\s*$/i,
  /^\s*_{8,}\s*$/,
  /^\s*(?:de|from)\s*:\s.+$/i,
];

/** Whether an attribution starts at `lines[start]`, on that line or wrapped over the next few (never past a blank line). */
function attributionAt(lines: string[], start: number): boolean {
  // Most lines are not one: told by their first word, without joining the lines after them.
  if (!ATTRIBUTION_START.test(lines[start]!)) return false;
  let joined = '';
  for (const line of lines.slice(start, start + ATTRIBUTION_LINES)) {
    if (!line.trim()) return false;
    joined = joined ? `${joined} ${line.trim()}` : line;
    if (ATTRIBUTIONS.some((attribution) => attribution.test(joined))) return true;
  }
  return false;
}

/**
 * Where the new part of a reply ends among its lines: at the first quoted line (`>`), the first "...
 * wrote:" / "... a écrit :" attribution (which may be wrapped), an Outlook header block, or the `-- `
 * signature delimiter; `lines.length` when nothing of that is found. With `enough`, the look stops
 * after the line that takes the part past that many characters (a snippet needs no more).
 */
function newPartEnd(lines: string[], enough = Infinity): number {
  let length = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (
      line === '-- ' ||
      line === '--' ||
      /^\s*>/.test(line) ||
      SEPARATORS.some((separator) => separator.test(line)) ||
      attributionAt(lines, i)
    )
      return i;
    if ((length += line.length + 1) > enough) return i + 1;
  }
  return lines.length;
}

const linesOf = (text: string): string[] => text.replace(/\r\n/g, '\n').split('\n');

/** The new part of a reply (newPartEnd); the whole text when it has no quote, attribution nor signature. */
export function replyText(text: string): string {
  const lines = linesOf(text);
  return lines.slice(0, newPartEnd(lines)).join('\n').trim();
}

/** How long a thread's snippet is, in characters (a list row's line or two). */
const SNIPPET_MAX_CHARS = 100;

/**
 * The snippet a thread keeps of its latest message (docs/contract.md, Decision 16, the rows of the workspace's
 * "Fils"): the start of the message's new part (replyText: no quote, no signature), spaces collapsed,
 * cut on a word with an ellipsis. Only the text's first 8 KB are looked at: a snippet never needs more.
 */
export function threadSnippet(text: string): string {
  const lines = linesOf(text.slice(0, 8192));
  const wordsBefore = (end: number) => lines.slice(0, end).join('\n').replace(/\s+/g, ' ').trim();
  // By code points: a cut never splits an emoji's surrogate pair. Twice as many UTF-16 units as the
  // snippet keeps characters hold at least one character more than it keeps.
  const lettersOf = (words: string) => Array.from(words.slice(0, 2 * SNIPPET_MAX_CHARS + 2));
  // The new part's first lines decide the snippet, unless their spaces collapse to fewer characters than it keeps.
  let words = wordsBefore(newPartEnd(lines, 4 * SNIPPET_MAX_CHARS));
  let letters = lettersOf(words);
  if (letters.length <= SNIPPET_MAX_CHARS) {
    words = wordsBefore(newPartEnd(lines));
    letters = lettersOf(words);
    if (letters.length <= SNIPPET_MAX_CHARS) return words;
  }
  const head = letters.slice(0, SNIPPET_MAX_CHARS).join('');
  const space = head.lastIndexOf(' ');
  return `${(space > head.length / 2 ? head.slice(0, space) : head).trimEnd()}…`;
}
