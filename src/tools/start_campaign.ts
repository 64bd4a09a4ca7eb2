import { startCampaign } from '../../actors/campaign.js';
import { campaignLine } from '../texts/campaigns.js';
import { lines } from '../texts/lists.js';
import { defineTool } from './registry.js';
import { CampaignSchema, CampaignStatusSchema, Id, Input, Notice, Output } from './schemas.js';

export default defineTool({
  name: 'start_campaign',
  description:
    'Lance une campagne en brouillon, ou reprend une campagne en pause (permission approve : un agent ne lance pas seul un envoi en ' +
    'nombre). Les messages partent ensuite au rythme des quotas de chaque boîte ; la clé qui lance est celle sous laquelle ils partent ' +
    '(ses plafonds comptent). Une campagne terminée ne repart pas (campaign_not_startable).',
  input: Input({ campaign_id: Id('campaign') }),
  output: Output({ campaign: CampaignSchema, was: CampaignStatusSchema, notice: Notice }),
  permission: ['approve'],
  verifiedRequired: true,
  effect: 'write',
  async handler({ rt, access }, input) {
    return startCampaign(rt, access, input.campaign_id);
  },
  hints: { openWorld: true, idempotent: true },
  notice: (out) =>
    `Ses messages partent au rythme des quotas de chaque boîte${out.campaign.requires_approval ? ', chacun après sa validation (list_drafts)' : ''}. ` +
    `Suivez-la avec campaign_status (campaign_id ${out.campaign.id}) ; mettez-la en pause avec pause_campaign.`,
  text: (out) =>
    lines(
      out.was === 'running'
        ? "La campagne était déjà en cours ; rien n'a changé."
        : `Campagne ${out.was === 'paused' ? 'reprise' : 'lancée'}.`,
      campaignLine(out.campaign),
    ),
});
