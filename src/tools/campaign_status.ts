import { Type } from '@sinclair/typebox';
import { campaignView, readCampaign } from '../../actors/campaign.js';
import { campaignFigures, MESSAGE_BUCKETS, SKIP_REASONS } from '../../actors/campaign-status.js';
import { campaignLines, figuresLines, type CampaignFiguresView } from '../texts/campaigns.js';
import { lines } from '../texts/lists.js';
import { defineTool } from './registry.js';
import { CampaignSchema, Id, Input, IsoDate, Notice, Nullable, Output } from './schemas.js';

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
    'drafts, queued, sent, delivered, bounced, failed, rejected, cancelled ; et replied, unsubscribed, complained), waiting (pas encore ' +
    'écrits), skipped par motif, follow_ups_sent (des messages), les taux (réponse, rebond, désabonnement, sur les contacts écrits), les ' +
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
      days: Type.Array(
        Output({ day: Type.String({ description: 'jour de Paris, AAAA-MM-JJ' }), sent: count(), replied: count() }),
      ),
      next_send_at: Nullable({
        ...IsoDate,
        description: "le prochain départ prévu de ses messages en file ; null quand aucun n'attend",
      }),
    }),
    notice: Notice,
  }),
  permission: ['read'],
  verifiedRequired: false,
  effect: 'read-only',
  async handler({ rt, access }, input) {
    const campaign = await readCampaign(rt, access.space.id, input.campaign_id);
    return { campaign: campaignView(campaign), figures: await campaignFigures(rt, access.space.id, campaign) };
  },
  notice: (out) =>
    out.campaign.status === 'draft'
      ? `Lancez-la avec start_campaign (campaign_id ${out.campaign.id}, permission approve).`
      : out.campaign.status === 'paused'
        ? `Reprenez-la avec start_campaign (campaign_id ${out.campaign.id}).`
        : null,
  text: (out, _input, frames) =>
    lines(campaignLines(out.campaign, frames), figuresLines(out.figures as unknown as CampaignFiguresView)),
});
