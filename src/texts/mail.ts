/**
 * Mail in French for the model: a message (with its bodies framed as external content), its
 * attachments, a thread, a search hit. One renderer per record, reused by every tool that answers it.
 */
import type { AttachmentView, MessageView, ThreadView } from '../record-schemas.js';
import { OUTSIDE_CONTENT, parisStamp, plural, quoteLine } from '../texts.js';
import type { ContentFrames } from './frame.js';
import { countOf } from './lists.js';

export const MESSAGE_STATUS_WORDS: Record<MessageView['status'], string> = {
  draft: 'brouillon à valider',
  queued: 'en file',
  sending: "en cours d'envoi",
  sent: 'parti',
  delivered: 'remis au serveur du destinataire',
  bounced: 'revenu en rebond',
  failed: 'abandonné après ses nouvelles tentatives',
  rejected: 'refusé définitivement',
  cancelled: 'annulé',
  received: 'reçu',
};

/** A sender or recipient address as shown; a received mail may give none. */
const address = (value: string | null): string => (value ? quoteLine(value) : "(sans adresse d'expéditeur)");

/** "att_… « devis.pdf » (application/pdf, 2048 octets)". */
export const attachmentPhrase = (a: AttachmentView): string =>
  `${a.id} ${a.filename === null ? '(sans nom)' : quoteLine(a.filename)} (${a.content_type}, ${plural(a.size, 'octet', 'octets')}` +
  `${a.inline ? `, affichée dans le corps${a.content_id ? ` : cid:${a.content_id}` : ''}` : ''})`;

export const attachmentsLine = (attachments: readonly AttachmentView[]): string | null =>
  attachments.length
    ? `Pièces jointes (${attachments.length}) : ${attachments.map(attachmentPhrase).join(' ; ')}.`
    : null;

/** What get_message alone adds to a message. */
export interface MessageDetails {
  html: string | null;
  to_name: string | null;
  send_after: string | null;
  estimated_send_at: string | null;
  headers: {
    message_id: string;
    in_reply_to: string | null;
    references: string[];
    authentication: Record<string, unknown> | null;
  };
}

/** "spf pass, dkim pass (exemple.fr), dmarc pass, arc none": the verdicts as received. */
function verdicts(authentication: Record<string, unknown>): string {
  return Object.entries(authentication)
    .filter(([name]) => name !== 'header_from')
    .map(([name, value]) =>
      Array.isArray(value)
        ? `${name} ${value.length ? value.map((s: { domain?: unknown; result?: unknown }) => `${s.result} (${s.domain})`).join(', ') : 'none'}`
        : `${name} ${typeof value === 'string' ? value : JSON.stringify(value)}`,
    )
    .join(', ');
}

function detailLines(m: MessageView, d: MessageDetails): string[] {
  const h = d.headers;
  return [
    d.to_name ? `Nom du destinataire : ${quoteLine(d.to_name)}.` : '',
    d.send_after ? `Pas avant le ${parisStamp(d.send_after)}.` : '',
    `En-têtes : Message-ID ${h.message_id}${h.in_reply_to ? ` ; In-Reply-To ${h.in_reply_to}` : ''}${h.references.length ? ` ; References ${h.references.join(' ')}` : ''}.`,
    h.authentication
      ? `Authentification de l'expéditeur${h.authentication.header_from ? ` ${quoteLine(String(h.authentication.header_from))}` : ''} : ${verdicts(h.authentication)}.`
      : '',
    m.has_html && d.html !== null
      ? `Version HTML : ${plural(Buffer.byteLength(d.html, 'utf8'), 'octet', 'octets')}, dans le champ html de la réponse structurée ; le texte ci-dessous en est la version texte.`
      : '',
  ];
}

/** Where a message's whole text is read when an answer cuts it. */
const readWhole = (m: MessageView): string => `lisez-le en entier avec get_message (message_id ${m.id})`;

/**
 * A message: who, to whom, when, its status and its files, then its bodies framed. A received one
 * shows reply_text (its new part) before its whole text, unless they are the same.
 */
export function messageLines(m: MessageView, frames: ContentFrames, details?: MessageDetails): string[] {
  const inbound = m.direction === 'inbound';
  const status = MESSAGE_STATUS_WORDS[m.status] + (m.status === 'draft' ? ` (révision ${m.revision})` : '');
  const when = inbound
    ? `le ${parisStamp(m.received_at ?? m.created_at)}`
    : `écrit le ${parisStamp(m.created_at)}${m.sent_at ? `, parti le ${parisStamp(m.sent_at)}` : ''}`;
  const head = [
    `Message ${m.id} : ${status}, de ${address(m.from)} à ${address(m.to)}, ${when}.`,
    m.cc.length ? `Copie à : ${m.cc.map((c) => address(c.address)).join(', ')}.` : '',
    m.bcc.length
      ? `Copie cachée à : ${m.bcc.map((c) => address(c.address)).join(', ')} (jamais montrée aux destinataires).`
      : '',
    `Objet : ${quoteLine(m.subject)} ; fil ${m.thread_id} ; boîte ${m.inbox_id}.`,
    m.written_by
      ? `Écrit par ${m.written_by.name === null ? `un accès retiré depuis (${m.written_by.key_id})` : m.written_by.key_id === 'human' ? "l'humain de l'espace" : `${quoteLine(m.written_by.name)} (${m.written_by.key_id})`}.`
      : '',
    m.in_reply_to_id ? `En réponse au message ${m.in_reply_to_id}.` : '',
    m.campaign_id ? `Écrit par la campagne ${m.campaign_id}.` : '',
    m.auto_reply ? 'Réponse automatique (absence, accusé de réception…).' : '',
    m.reply_to ? `Répondre à : ${quoteLine(m.reply_to)}.` : '',
    m.status_code ? `Code d'envoi : ${m.status_code}.` : '',
    ...(details
      ? detailLines(m, details)
      : m.has_html
        ? ['Une version HTML existe (get_message la donne) ; le texte ci-dessous en est la version texte.']
        : []),
    attachmentsLine(m.attachments) ?? '',
    m.metadata ? `Métadonnées : ${JSON.stringify(m.metadata)}.` : '',
  ];
  const bodies: string[] = [];
  if (inbound && m.reply_text !== undefined && m.reply_text.trim() !== m.text.trim() && m.reply_text.trim() !== '') {
    bodies.push(
      ...frames.body({
        label: `texte nouveau (reply_text, sans citations ni signature) du message ${m.id}`,
        text: m.reply_text,
        external: true,
        whole: readWhole(m),
      }),
    );
  }
  if (m.text === '') bodies.push('(Texte vide.)');
  else
    bodies.push(
      ...frames.body({
        label: `texte ${m.truncated ? 'tronqué' : 'complet'} du message ${m.id}`,
        text: m.text,
        external: inbound,
        whole: readWhole(m),
      }),
    );
  if (m.truncated)
    bodies.push(
      `(Texte du message ${m.id} tronqué dans la réponse, au-delà des 200 Ko de textes de l'appel ; ${readWhole(m)}.)`,
    );
  return [...head, ...bodies].filter((line) => line !== '');
}

/** Whether a list of messages holds received mail: its answer carries the external-content warning. */
export const hasInbound = (messages: readonly Pick<MessageView, 'direction'>[]): boolean =>
  messages.some((m) => m.direction === 'inbound');

/** The external-content warning when `outside` holds; else nothing. */
export const outsideNotice = (outside: boolean): string | null => (outside ? OUTSIDE_CONTENT : null);

/** "Léa Martin <lea@exemple.fr>", the address alone, or that the thread has none. */
const correspondent = (contact: string | null, name: string | null): string =>
  contact ? (name ? `${quoteLine(name)} <${contact}>` : contact) : 'sans correspondant';

/** A thread: id, subject, correspondent, counts, last activity, unread, labels, archive, inbox, campaign. */
export function threadLines(t: ThreadView): string[] {
  const state = [
    t.unread ? 'Non lu' : 'Lu',
    t.labels.length ? `étiquettes ${t.labels.map(quoteLine).join(', ')}` : 'sans étiquette',
    t.archived ? 'archivé' : '',
    `boîte ${t.inbox_id}`,
    t.campaign_id ? `campagne ${t.campaign_id}` : '',
  ].filter(Boolean);
  return [
    `Fil ${t.id} ${quoteLine(t.subject)} avec ${correspondent(t.contact, t.contact_name)} : ${countOf(t.message_count, 'message', 'messages', 'aucun message')}, ` +
      `le dernier ${t.last_direction === 'inbound' ? 'reçu' : 'envoyé'} le ${parisStamp(t.last_message_at)}.`,
    `${state.join(' ; ')}.`,
  ];
}

/** A search hit: its thread, the matching messages and the snippet (a stranger's words, on one line). */
export const searchHitLines = (hit: { thread: ThreadView; message_ids: string[]; snippet: string }): string[] => [
  ...threadLines(hit.thread),
  `Messages qui correspondent : ${hit.message_ids.join(', ')}.`,
  `Extrait : ${quoteLine(hit.snippet)}`,
];

/** What a draft's reader can do with it, with the revision approve_message takes. */
export const draftNextStep = (m: Pick<MessageView, 'id' | 'revision'>): string =>
  `Validez-le avec approve_message (message_id ${m.id}, revision ${JSON.stringify(m.revision)}), corrigez-le avec update_draft ou annulez-le avec cancel_message.`;
