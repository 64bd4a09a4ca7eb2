/**
 * A campaign's `{{field}}` placeholders (decisions.md 7): `{{email}}`, `{{name}}` and any field of the
 * contact; `{{unsubscribe_url}}` stays for the delivery to fill, as in send_email. Pure rules.
 */
import type { ContactView } from '../records.js';
import { UNSUBSCRIBE_TOKEN } from './validate.js';

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

/** The text with the contact's values in place (every placeholder resolves: checked at creation). */
export const fillPlaceholders = (text: string, contact: ContactView): string =>
  text.replace(PLACEHOLDER, (whole, field: string) => (field === UNSUBSCRIBE_TOKEN ? whole : valueOf(field, contact) ?? whole));
