/**
 * A refusal as the model reads it over MCP (docs/tools.md, "What the model reads"): the French message, then its hint
 * in words when the message does not already say it. A content-only host sees the JSON too; a
 * structured-only host gets no structuredContent on a refusal, so the words are what it reads first.
 */
import type { Hint } from '../errors.js';
import { quote } from '../texts.js';
import { CAMPAIGN_STATUS_WORDS } from './campaigns.js';

/** A hint's value in French: a campaign's status (the only `status` a hint carries) in words, anything else as it is. */
const valueWords = (name: string, value: unknown): string =>
  name === 'status' ? (CAMPAIGN_STATUS_WORDS[String(value)] ?? String(value)) : String(value);

const HINT_WORDS: Record<string, (value: string) => string> = {
  parameter: (v) => `paramètre en cause : ${v}`,
  retry_after_seconds: (v) => `réessayez dans ${v} s`,
  thread_id: (v) => `fil concerné : ${v} (répondez-y avec reply_to_thread)`,
  inbox_id: (v) => `boîte concernée : ${v}`,
  allowed_domains: (v) => `domaines permis : ${v}`,
  inbox_count: (v) => `boîtes de l'espace : ${v}`,
  attempts_left: (v) => `essais restants : ${v}`,
  max: (v) => `maximum : ${v}`,
  name: (v) => `nom en cause : ${quote(v)}`,
  placeholder: (v) => `champ en cause : ${v}`,
  filename: (v) => `fichier en cause : ${quote(v)}`,
  filter_id: (v) => `filtre en cause : ${v}`,
  revision: (v) => `révision actuelle : ${v}`,
  campaign_id: (v) => `campagne concernée : ${v}`,
  status: (v) => `état de la campagne : ${v}`,
  max_bytes: (v) => `au plus ${v} octets`,
  memory: () => 'limite de mémoire du service atteinte',
};

/** Whether the message already carries a hint: its value or its words (every element of a list). */
function said(message: string, name: string, value: unknown): boolean {
  if (Array.isArray(value)) return value.every((v) => message.includes(String(v)));
  return typeof value !== 'boolean' && (message.includes(String(value)) || message.includes(valueWords(name, value)));
}

/** The message, then "Précision : …" for each hint the message leaves unsaid. */
export function refusalText(message: string, hint: Hint | null): string {
  const unsaid = Object.entries(hint ?? {}).filter(
    ([name, value]) => value !== null && value !== undefined && !said(message, name, value),
  );
  if (!unsaid.length) return message;
  const words = unsaid.map(([name, value]) => {
    const text = Array.isArray(value) ? value.join(', ') : valueWords(name, value);
    return HINT_WORDS[name]?.(text) ?? `${name} : ${JSON.stringify(value)}`;
  });
  return `${message} Précision : ${words.join(' ; ')}.`;
}
