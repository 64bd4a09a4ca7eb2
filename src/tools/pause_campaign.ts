import { Type } from '@sinclair/typebox';
import { pauseCampaign } from '../../actors/campaign.js';
import { quote } from '../texts.js';
import { defineTool } from './registry.js';
import { CampaignSchema, Id, Input, Output } from './schemas.js';

export default defineTool({
  name: 'pause_campaign',
  description:
    "Met en pause une campagne en cours, tout de suite : plus aucun de ses messages ne part, ceux qui attendaient en file sortent de la " +
    "file jusqu'à la reprise (start_campaign). Les messages déjà partis ne reviennent pas.",
  input: Input({ campaign_id: Id('campaign') }),
  output: Output({ campaign: CampaignSchema, held: Type.Integer({ description: 'messages en file retenus jusqu\'à la reprise' }) }),
  permission: ['send', 'approve'],
  verifiedRequired: false,
  effect: 'write',
  async handler({ rt, access }, input) {
    return pauseCampaign(rt, access, input.campaign_id);
  },
  text: (out) => `Campagne ${quote(out.campaign.name)} en pause ; ${out.held} message(s) en file retenu(s) jusqu'à la reprise (start_campaign).`,
});
