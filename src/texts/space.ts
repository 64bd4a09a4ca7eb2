/** The space's records in French for the model: inbox, domain, key, filter, suppression. */
import type { Static } from '@sinclair/typebox';
import type { DomainView, FilterView, InboxView, KeyView, SuppressionSchema } from '../record-schemas.js';
import {
  filterPhrase,
  parisMoment,
  parisStamp,
  permissionList,
  plural,
  quote,
  quoteLine,
  reasonText,
} from '../texts.js';

type SuppressionView = Static<typeof SuppressionSchema>;

const INBOX_STATUS_WORDS: Record<InboxView['status'], string> = {
  active: 'active',
  suspended: 'suspendue',
  deleted: 'supprimée',
};

/** An inbox: address, state, today's quota, waiting mail, warm-up, window, suspension. */
export function inboxLines(inbox: InboxView): string[] {
  const q = inbox.quota;
  const w = inbox.warmup;
  const since = inbox.status_changed_at ? ` depuis le ${parisStamp(inbox.status_changed_at)}` : '';
  const suspension = inbox.suspension;
  return [
    `Boîte ${inbox.id} ${quote(inbox.address)} (${quoteLine(inbox.display_name)}) : ${INBOX_STATUS_WORDS[inbox.status]}${inbox.status === 'active' ? '' : since}` +
      `${inbox.status_reason ? ` (${inbox.status_reason})` : ''}.`,
    suspension
      ? suspension.review === 'requested'
        ? `Reprise demandée le ${parisStamp(suspension.requested_at!)} : un administrateur du service l'examine.`
        : 'Aucune reprise demandée (request_inbox_review).'
      : '',
    `Aujourd'hui : ${plural(q.sent_today, 'envoi', 'envois')} sur ${q.daily_quota}, reste ${q.remaining_today} (maximum de l'offre : ${q.daily_max} par jour) ; ` +
      `${plural(inbox.drafts, 'brouillon', 'brouillons')} à valider ; ${plural(inbox.queued, 'message', 'messages')} en file` +
      `${inbox.next_send_at ? `, prochain départ ${parisMoment(Date.parse(inbox.next_send_at))} (heure de Paris)` : ''}.`,
    w.finished
      ? `Montée en charge terminée (paliers ${w.steps.join(', ')} par jour).`
      : `Montée en charge : semaine ${w.week}, palier de ${w.step} par jour (paliers ${w.steps.join(', ')}).`,
    `Fenêtre d'envoi : ${inbox.send_window}.`,
    inbox.shared
      ? "Boîte du domaine commun : elle n'écrit qu'aux personnes qui lui ont écrit d'abord (reply_to_thread)."
      : '',
  ].filter(Boolean);
}

const RECORD_STATE_WORDS = { found: 'trouvé', absent: 'absent', different: 'valeur différente' } as const;

/** A domain: its state and each DNS record to publish, with what the last check saw. */
export function domainLines(domain: DomainView): string[] {
  const state =
    domain.status === 'verified'
      ? `vérifié${domain.verified_at ? ` le ${parisStamp(domain.verified_at)}` : ''}`
      : domain.status === 'suspended'
        ? `suspendu (${domain.status_reason}) : ses boîtes n'envoient plus`
        : 'en attente de ses enregistrements DNS';
  const checked = domain.last_checked_at
    ? `Dernier contrôle DNS le ${parisStamp(domain.last_checked_at)}.`
    : 'Pas encore contrôlé.';
  return [
    `Domaine ${domain.id} ${quote(domain.domain)} : ${state}. ${checked}`,
    ...domain.records.map(
      (r) =>
        `${r.label}${r.required ? '' : ' (facultatif)'} : ${r.type} ${r.name} = ${r.value}` +
        (domain.last_checked_at
          ? ` — ${RECORD_STATE_WORDS[r.state]}${r.state === 'different' && r.seen ? ` (vu : ${r.seen})` : ''}`
          : '') +
        (r.note ? ` (${r.note})` : ''),
    ),
  ];
}

/** A domain's next step: publish and check, or create inboxes on it. */
export const domainNotice = (domain: DomainView): string =>
  domain.status === 'verified'
    ? `Créez-y des boîtes avec create_inbox (domain ${domain.domain}).`
    : `Publiez les enregistrements requis dans le DNS de ${domain.domain}, puis appelez verify_domain (un changement DNS peut mettre quelques minutes à se voir).`;

/** A key or a connection: permissions, inboxes, cap, dates; never its secret (only its first characters). */
export function keyLine(key: KeyView): string {
  const origin = [
    key.client_id ? `client ${key.client_id}` : '',
    key.redirect_host ? `autorisation sur ${key.redirect_host}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  const who =
    key.kind === 'connection'
      ? `Connexion ${key.id} de l'assistant ${quoteLine(key.name)}${origin ? ` (${origin})` : ''}`
      : `Clé ${key.id} ${quoteLine(key.name)}`;
  return (
    `${who} : ${permissionList(key.permissions)} ; ${key.inbox_ids ? `boîtes ${key.inbox_ids.join(', ')}` : 'toutes les boîtes'} ; ` +
    `${key.daily_cap === null ? 'sans plafond quotidien' : `au plus ${key.daily_cap} messages par jour`} ; créée le ${parisStamp(key.created_at)}` +
    `${key.created_by ? ` par ${key.created_by}` : ''} ; ${key.last_used_at ? `dernier usage le ${parisStamp(key.last_used_at)}` : 'jamais utilisée'} ; secret commençant par ${key.prefix}.`
  );
}

/** A filter: what it lets through or blocks, where, when and by whom. */
export const filterLine = (f: FilterView): string =>
  `Filtre ${f.id} : ${filterPhrase(f)} ; ajouté le ${parisStamp(f.created_at)} ${f.created_by === 'human' ? "par l'humain de l'espace" : `par la clé ${f.created_by}`}.`;

/** A suppression: the address or domain, why, since when, from where. */
export const suppressionLine = (s: SuppressionView): string =>
  `Blocage ${s.id} : ${quote(s.value)} (${s.kind === 'domain' ? 'domaine' : 'adresse'}), ${reasonText(s.reason)}, ` +
  `pour tout l'espace depuis le ${parisStamp(s.created_at)} ; origine ${s.source}${s.note ? ` ; motif ${quoteLine(s.note)}` : ''}.`;
