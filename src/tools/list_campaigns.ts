import { Type } from '@sinclair/typebox';
import { campaignView, listCampaigns } from '../../actors/campaign.js';
import { campaignLine } from '../texts/campaigns.js';
import { countOf, items, lines } from '../texts/lists.js';
import { defineTool } from './registry.js';
import { CampaignSchema, CampaignStatusSchema, Input, Output } from './schemas.js';

export default defineTool({
  name: 'list_campaigns',
  description:
    "Liste les campagnes de l'espace, de la plus ancienne à la plus récente, avec leur état. Les chiffres d'une campagne : campaign_status.",
  input: Input({ status: Type.Optional(CampaignStatusSchema) }),
  output: Output({ items: Type.Array(CampaignSchema) }),
  permission: ['read'],
  verifiedRequired: false,
  effect: 'read-only',
  async handler({ rt, access }, input) {
    const campaigns = await listCampaigns(rt, access.space.id);
    return {
      items: campaigns.filter((campaign) => !input.status || campaign.status === input.status).map(campaignView),
    };
  },
  text: (out) =>
    lines(
      `${countOf(out.items.length, 'campagne', 'campagnes', 'Aucune campagne')}, de la plus ancienne à la plus récente${out.items.length ? ' :' : '.'}`,
      items(out.items, (c) => [campaignLine(c)]),
    ),
});
