/**
 * A campaign's `{{field}}` placeholders (docs/contract.md, Decision 7): `{{email}}`, `{{name}}` and any field of the
 * contact; `{{unsubscribe_url}}` stays for the delivery to fill, as in send_email. Pure rules.
 */
import type { ContactView } from '../record-schemas.js';
import { escapeHtml } from '../texts.js';
import { SUBJECT_MAX_CHARS, UNSUBSCRIBE_TOKEN } from './validate.js';

/** Names a contact's free fields may not take: the placeholders that mean something else. */
export const RESERVED_FIELDS: readonly string[] = ['email', 'name', UNSUBSCRIBE_TOKEN];

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** The value a placeholder takes for a contact, or null when the contact has none. */
function valueOf(field: string, contact: ContactView): string | null {
  if (field === 'email') return contact.email;
  if (field === 'name') return contact.name || null;
  return contact.fields[field] || null;
}

/** The first placeholder of the texts that the contact cannot fill, or null when all resolve. */
export function unresolvedField(texts: readonly string[], contact: ContactView): string | null {
  for (const text of texts) {
    for (const match of text.matchAll(PLACEHOLDER)) {
      if (match[1] !== UNSUBSCRIBE_TOKEN && valueOf(match[1]!, contact) === null) return match[1]!;
    }
  }
  return null;
}

/** The text with the contact's values in place, escaped by `escape` (every placeholder resolves: checked before). */
const fillPlaceholders = (
  text: string,
  contact: ContactView,
  escape: (value: string) => string = (value) => value,
): string =>
  text.replace(PLACEHOLDER, (whole, field: string) => {
    if (field === UNSUBSCRIBE_TOKEN) return whole;
    const value = valueOf(field, contact);
    return value === null ? whole : escape(value);
  });

/** The placeholders a text holds, by name, in order. */
const placeholdersIn = (text: string): string[] => [...text.matchAll(PLACEHOLDER)].map((match) => match[1]!);

/** A campaign message's texts; `subject` null for a follow-up (it takes its thread's). */
export interface MessageTexts {
  subject: string | null;
  text: string;
  html: string | null;
}

/**
 * Why a contact cannot get a campaign's message, its values filled in: `field_placeholder`, a value
 * brought a `{{…}}` (`{{unsubscribe_url}}` included: a subject keeps none, a body only its template's
 * own); `invalid_subject`, the subject is over SUBJECT_MAX_CHARS or no longer one line.
 */
export type FillFault = 'field_placeholder' | 'invalid_subject';

/**
 * The contact's message from the campaign's texts (every placeholder resolves: checked before): its
 * values in place, escaped in the HTML (a field's `<script>` stays words there), then checked as
 * create_campaign checks the texts themselves; or the fault that stops the contact.
 */
export function fillMessage(texts: MessageTexts, contact: ContactView): MessageTexts | { fault: FillFault } {
  const filled: MessageTexts = {
    subject: texts.subject === null ? null : fillPlaceholders(texts.subject, contact),
    text: fillPlaceholders(texts.text, contact),
    html: texts.html === null ? null : fillPlaceholders(texts.html, contact, escapeHtml),
  };
  for (const part of ['subject', 'text', 'html'] as const) {
    const template = texts[part];
    if (template === null) continue;
    const kept = placeholdersIn(template).filter((name) => name === UNSUBSCRIBE_TOKEN);
    if (placeholdersIn(filled[part]!).join('\n') !== kept.join('\n')) return { fault: 'field_placeholder' };
  }
  if (filled.subject !== null && (filled.subject.length > SUBJECT_MAX_CHARS || /[\r\n\u0000]/.test(filled.subject)))
    return { fault: 'invalid_subject' };
  return filled;
}
