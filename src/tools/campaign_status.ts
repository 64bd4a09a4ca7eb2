import { Type } from '@sinclair/typebox';
import { campaignView, readCampaign } from '../../actors/campaign.js';
import { campaignFigures, MESSAGE_BUCKETS, SKIP_REASONS } from '../../actors/campaign-status.js';
import { quote } from '../texts.js';
import { defineTool } from './registry.js';
import { CampaignSchema, Id, Input, Output } from './schemas.js';

const count = (description?: string) => Type.Integer({ minimum: 0, ...(description ? { description } : {}) });

/** Contacts by the status of their latest message, and by what they did. */
const COUNTS = {
  recipients: count('contacts visés : écrits, en attente et écartés'),
  ...Object.fromEntries(MESSAGE_BUCKETS.map((name) => [name, count()])),
  replied: count('contacts ayant répondu (réponse automatique exclue)'),
  unsubscribed: count(),
  complained: count(),
  follow_ups_sent: count('relances parties (des messages, pas des contacts)'),
};

export default defineTool({
  name: 'campaign_status',
  description:
    "L'état et les performances d'une campagne : des nombres de contacts (chacun compté une fois selon l'état de son dernier message : " +
    "drafts, queued, sent, delivered, bounced, failed, rejected, cancelled ; et replied, unsubscribed, complained), waiting (pas encore " +
    "écrits), skipped par motif, follow_ups_sent (des messages), les taux (réponse, rebond, désabonnement, sur les contacts écrits), les " +
    'mêmes chiffres par boîte, et une série par jour (envois, réponses).',
  input: Input({ campaign_id: Id('campaign') }),
  output: Output({
    campaign: CampaignSchema,
    figures: Output({
      ...COUNTS,
      waiting: count('contacts pas encore écrits'),
      skipped: Output(Object.fromEntries(SKIP_REASONS.map((reason) => [reason, count()]))),
      rates: Output({ reply: Type.Number(), bounce: Type.Number(), unsubscribe: Type.Number() }),
      per_inbox: Type.Array(Output({ inbox_id: Id('inbox'), ...COUNTS })),
      days: Type.Array(Output({ day: Type.String({ description: 'jour de Paris, AAAA-MM-JJ' }), sent: count(), replied: count() })),
    }),
  }),
  permission: ['read'],
  verifiedRequired: false,
  effect: 'read-only',
  async handler({ rt, access }, input) {
    const campaign = await readCampaign(rt, access.space.id, input.campaign_id);
    return { campaign: campaignView(campaign), figures: (await campaignFigures(rt, access.space.id, campaign)) as never };
  },
  text: (out) => {
    const f = out.figures as unknown as Record<(typeof MESSAGE_BUCKETS)[number] | 'recipients' | 'waiting' | 'replied' | 'unsubscribed' | 'follow_ups_sent', number>;
    return `Campagne ${quote(out.campaign.name)} (${out.campaign.status}) : ${f.recipients} contacts, ${f.waiting} en attente, ${f.queued} en file, ` +
      `${f.sent + f.delivered} partis, ${f.replied} réponses, ${f.bounced} rebonds, ${f.unsubscribed} désabonnements, ${f.follow_ups_sent} relances parties.`;
  },
});
