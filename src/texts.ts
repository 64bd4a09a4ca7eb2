/** French words shared by the tools' texts, the journal and the error messages. */
import { DateTime } from 'luxon';

export const PARIS = 'Europe/Paris';

/** "lundi 23 novembre à 9 h 12" (Paris time). */
export function parisMoment(ms: number): string {
  const t = DateTime.fromMillis(ms, { zone: PARIS }).setLocale('fr');
  const minutes = t.minute === 0 ? '' : ` ${String(t.minute).padStart(2, '0')}`;
  return `${t.toFormat('cccc d LLLL')} à ${t.hour} h${minutes}`;
}

/** The Paris calendar day of an instant, YYYY-MM-DD. */
export const parisDay = (ms: number): string => DateTime.fromMillis(ms, { zone: PARIS }).toISODate()!;

export const plural = (count: number, one: string, many: string): string => `${count} ${count > 1 ? many : one}`;

export const PERMISSION_WORDS: Record<string, string> = {
  send: 'envoi',
  read: 'lecture',
  approve: 'validation',
  manage_inboxes: 'gestion des boîtes',
};

export const permissionList = (permissions: readonly string[]): string =>
  permissions.map((p) => PERMISSION_WORDS[p] ?? p).join(', ');

/** "j***@exemple.fr": enough for the human to recognise the address, not enough to harvest it. */
export function maskEmail(email: string | null): string | null {
  if (!email) return null;
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  return `${email[0]}***${email.slice(at)}`;
}

export const quote = (text: string): string => `« ${text} »`;

type LineData = Record<string, unknown>;

/** The journal's French noun phrases (no subject: the actor is shown beside), by line kind. */
const JOURNAL_TEXTS: Record<string, (d: LineData) => string> = {
  'space.created': () => "Ouverture de l'espace",
  'key.created': (d) =>
    `Création de la clé ${quote(String(d.name))} (${permissionList((d.permissions as string[]) ?? [])})`,
  'key.revoked': (d) => `Révocation ${d.kind === 'connection' ? 'de la connexion' : 'de la clé'} ${quote(String(d.name))}`,
  'inbox.created': (d) => `Création de la boîte ${quote(String(d.address))}`,
  'inbox.deleted': (d) => `Suppression de la boîte ${quote(String(d.address))}`,
  'inbox.suspended': (d) => `Suspension de la boîte ${quote(String(d.address))} : ${d.reason}`,
  'inbox.review_requested': (d) => `Demande de reprise de la boîte ${quote(String(d.address))}${d.message ? ` : ${quote(String(d.message))}` : ''}`,
  'inbox.resumed': (d) => `Reprise de la boîte ${quote(String(d.address))} par l'opérateur`,
  'domain.added': (d) => `Ajout du domaine ${quote(String(d.domain))}`,
  'domain.checked': (d) =>
    `Vérification DNS du domaine ${quote(String(d.domain))} : ${d.found} enregistrement${Number(d.found) > 1 ? 's' : ''} requis sur ${d.required} en place`,
  'domain.verified': (d) => `${d.restored ? 'Rétablissement' : 'Validation'} du domaine ${quote(String(d.domain))}`,
  'domain.suspended': (d) => `Suspension du domaine ${quote(String(d.domain))} : ${d.reason}`,
  'domain.removed': (d) => `Retrait du domaine ${quote(String(d.domain))}`,
};

export const journalText = (kind: string, data: LineData): string => JOURNAL_TEXTS[kind]?.(data) ?? kind;

export const JOURNAL_KINDS = Object.keys(JOURNAL_TEXTS);

/** "9 h 05" (Paris time) of an ISO instant. */
export function parisClock(isoDate: string): string {
  const t = DateTime.fromISO(isoDate, { zone: PARIS });
  return `${t.hour} h ${String(t.minute).padStart(2, '0')}`;
}
