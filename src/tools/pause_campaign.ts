import { Type } from '@sinclair/typebox';
import { pauseCampaign } from '../../actors/campaign.js';
import { plural } from '../texts.js';
import { campaignLine } from '../texts/campaigns.js';
import { lines } from '../texts/lists.js';
import { defineTool } from './registry.js';
import { CampaignSchema, Id, Input, Notice, Output } from './schemas.js';

export default defineTool({
  name: 'pause_campaign',
  description:
    'Met en pause une campagne en cours, tout de suite : plus aucun de ses messages ne part, ceux qui attendaient en file sortent de la ' +
    "file jusqu'à la reprise (start_campaign). Les messages déjà partis ne reviennent pas.",
  input: Input({ campaign_id: Id('campaign') }),
  output: Output({
    campaign: CampaignSchema,
    held: Type.Integer({ description: "messages en file retenus jusqu'à la reprise" }),
    notice: Notice,
  }),
  permission: ['send', 'approve'],
  verifiedRequired: false,
  effect: 'write',
  async handler({ rt, access }, input) {
    return pauseCampaign(rt, access, input.campaign_id);
  },
  hints: { idempotent: true },
  notice: (out) => `Reprenez-la avec start_campaign (campaign_id ${out.campaign.id}, permission approve).`,
  text: (out) =>
    lines(
      `Campagne en pause ; ${plural(out.held, 'message en file retenu', 'messages en file retenus')} jusqu'à la reprise.`,
      campaignLine(out.campaign),
    ),
});
