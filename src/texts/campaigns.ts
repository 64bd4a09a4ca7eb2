/** Audiences, contacts and campaigns in French for the model. */
import type { AudienceView, CampaignView, ContactView } from '../record-schemas.js';
import { parisStamp, percent, plural, quoteLine, reasonText } from '../texts.js';
import type { ContentFrames } from './frame.js';

export const CAMPAIGN_STATUS_WORDS: Record<CampaignView['status'], string> = {
  draft: 'en brouillon (pas encore lancée)',
  running: 'en cours',
  paused: 'en pause',
  finished: 'terminée',
  cancelled: 'annulée',
};

/** An audience: name, size, date. */
export const audienceLine = (a: AudienceView): string =>
  `Audience ${a.id} ${quoteLine(a.name)} : ${plural(a.contact_count, 'contact', 'contacts')}, créée le ${parisStamp(a.created_at)}.`;

/** A contact: name and address, and its free fields. */
export function contactLine(c: ContactView): string {
  const fields = Object.entries(c.fields);
  return (
    `${c.name ? `${quoteLine(c.name)} <${c.email}>` : `${c.email} (sans nom)`}` +
    (fields.length
      ? ` ; champs : ${fields.map(([name, value]) => `${name} = ${quoteLine(value)}`).join(', ')}.`
      : ' ; sans champ.')
  );
}

/** A campaign: its settings, dates, then its texts (ours, not external) framed like any body. */
export function campaignLines(c: CampaignView, frames: ContentFrames): string[] {
  const dates = [
    `créée le ${parisStamp(c.created_at)}`,
    c.started_at ? `lancée le ${parisStamp(c.started_at)}` : '',
    c.finished_at ? `finie le ${parisStamp(c.finished_at)}` : '',
  ].filter(Boolean);
  const whole = `lisez-le en entier avec campaign_status (campaign_id ${c.id})`;
  return [
    `Campagne ${c.id} ${quoteLine(c.name)} : ${CAMPAIGN_STATUS_WORDS[c.status]} ; ${dates.join(', ')}.`,
    `Audience ${c.audience_id} ; ${c.inbox_ids.length > 1 ? 'boîtes' : 'boîte'} ${c.inbox_ids.join(', ')} ; objet ${quoteLine(c.subject)}` +
      `${c.has_html ? ' ; avec une version HTML' : ''} ; ${c.requires_approval ? 'chaque message attend une validation humaine' : 'messages envoyés sans validation'}` +
      `${c.send_after ? ` ; pas avant le ${parisStamp(c.send_after)}` : ''}.`,
    ...frames.body({ label: `texte du premier message de la campagne ${c.id}`, text: c.text, external: false, whole }),
    ...(c.follow_ups.length
      ? [`${plural(c.follow_ups.length, 'relance', 'relances')} dans le fil de chaque contact, sauf s'il répond :`]
      : ['Sans relance.']),
    ...c.follow_ups.flatMap((f, i) => [
      `Relance ${i + 1}, ${plural(f.after_days, 'jour ouvré', 'jours ouvrés')} (Paris) après le message précédent :`,
      ...frames.body({
        label: `texte de la relance ${i + 1} de la campagne ${c.id}`,
        text: f.text,
        external: false,
        whole,
      }),
    ]),
  ];
}

/** The short form of a campaign in a list of others: name, state, audience, dates. */
export const campaignLine = (c: CampaignView): string =>
  `Campagne ${c.id} ${quoteLine(c.name)} : ${CAMPAIGN_STATUS_WORDS[c.status]} ; audience ${c.audience_id} ; objet ${quoteLine(c.subject)} ; ` +
  `${plural(c.follow_ups.length, 'relance', 'relances')} ; créée le ${parisStamp(c.created_at)}${c.started_at ? `, lancée le ${parisStamp(c.started_at)}` : ''}` +
  `${c.finished_at ? `, finie le ${parisStamp(c.finished_at)}` : ''}.`;

/** Counts of contacts by the status of their latest message, and of what they did (campaign_status' figures). */
type CampaignCounts = Record<
  | 'recipients'
  | 'drafts'
  | 'queued'
  | 'sent'
  | 'delivered'
  | 'bounced'
  | 'failed'
  | 'rejected'
  | 'cancelled'
  | 'replied'
  | 'unsubscribed'
  | 'complained'
  | 'follow_ups_sent',
  number
>;

/** "2 brouillons, 1 en file, 4 partis, …": every count, named in French. */
const countsPhrase = (c: CampaignCounts): string =>
  `${plural(c.drafts, 'brouillon', 'brouillons')}, ${c.queued} en file, ${plural(c.sent, 'parti', 'partis')} ` +
  `(remise non confirmée), ${plural(c.delivered, 'remis', 'remis')}, ${plural(c.bounced, 'rebond', 'rebonds')}, ${plural(c.failed, 'échec', 'échecs')}, ` +
  `${plural(c.rejected, 'refus', 'refus')}, ${plural(c.cancelled, 'annulé', 'annulés')} ; ${plural(c.replied, 'réponse', 'réponses')}, ` +
  `${plural(c.unsubscribed, 'désabonnement', 'désabonnements')}, ${plural(c.complained, 'plainte', 'plaintes')} ; ` +
  `${plural(c.follow_ups_sent, 'relance partie', 'relances parties')}`;

export interface CampaignFiguresView extends CampaignCounts {
  waiting: number;
  skipped: Record<string, number>;
  rates: { reply: number; bounce: number; unsubscribe: number };
  per_inbox: (CampaignCounts & { inbox_id: string })[];
  days: { day: string; sent: number; replied: number }[];
}

/** A campaign's figures: contacts by state, skipped by reason, rates, per inbox, per day. */
export function figuresLines(f: CampaignFiguresView): string[] {
  const skipped = Object.entries(f.skipped).filter(([, n]) => n > 0);
  return [
    `${plural(f.recipients, 'contact visé', 'contacts visés')}, dont ${f.waiting} pas encore ${f.waiting > 1 ? 'écrits' : 'écrit'}. ` +
      `Par dernier message : ${countsPhrase(f)}.`,
    `Écartés : ${skipped.length ? skipped.map(([reason, n]) => `${n} (${reasonText(reason)})`).join(', ') : 'aucun'}.`,
    `Taux sur les contacts écrits : réponse ${percent(f.rates.reply)}, rebond ${percent(f.rates.bounce)}, désabonnement ${percent(f.rates.unsubscribe)}.`,
    ...f.per_inbox.map(
      (b) => `Boîte ${b.inbox_id} : ${plural(b.recipients, 'contact', 'contacts')} ; ${countsPhrase(b)}.`,
    ),
    ...(f.days.length
      ? [
          `Par jour (Paris) : ${f.days.map((d) => `${d.day} : ${plural(d.sent, 'envoi', 'envois')}, ${plural(d.replied, 'réponse', 'réponses')}`).join(' ; ')}.`,
        ]
      : []),
  ];
}

export const CONTACT_STATE_WORDS = {
  claimed: "en cours d'écriture",
  written: 'écrit',
  skipped: 'écarté',
  stopped: 'relances arrêtées',
} as const;

/** Where a contact stands in one campaign (get_contact). */
export const contactCampaignLine = (c: {
  campaign_id: string;
  name: string;
  campaign_status: string;
  state: string;
  reason: string | null;
  step: number;
  thread_id: string | null;
  inbox_id: string | null;
}): string =>
  `Campagne ${c.campaign_id} ${quoteLine(c.name)} (${CAMPAIGN_STATUS_WORDS[c.campaign_status] ?? c.campaign_status}) : ` +
  `${CONTACT_STATE_WORDS[c.state as keyof typeof CONTACT_STATE_WORDS] ?? c.state}${c.reason ? ` (${reasonText(c.reason)})` : ''} ; ${c.step === 0 ? 'premier message' : `relance ${c.step}`}` +
  `${c.thread_id ? ` ; fil ${c.thread_id}` : ''}${c.inbox_id ? ` ; boîte ${c.inbox_id}` : ''}.`;
