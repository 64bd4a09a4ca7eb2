import { Type } from '@sinclair/typebox';
import { campaignView, listCampaigns } from '../../actors/campaign.js';
import { plural, quote } from '../texts.js';
import { defineTool } from './registry.js';
import { CampaignSchema, Input, Output } from './schemas.js';

export default defineTool({
  name: 'list_campaigns',
  description: "Liste les campagnes de l'espace, de la plus ancienne à la plus récente, avec leur état. Les chiffres d'une campagne : campaign_status.",
  input: Input({}),
  output: Output({ items: Type.Array(CampaignSchema) }),
  permission: ['read'],
  verifiedRequired: false,
  effect: 'read-only',
  async handler({ rt, access }) {
    return { items: (await listCampaigns(rt, access.space.id)).map(campaignView) };
  },
  text: (out) =>
    `${plural(out.items.length, 'campagne', 'campagnes')}` + (out.items.length ? ' : ' + out.items.map((c) => `${quote(c.name)} (${c.id}, ${c.status})`).join(', ') : '') + '.',
});
