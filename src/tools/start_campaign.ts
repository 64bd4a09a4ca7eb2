import { startCampaign } from '../../actors/campaign.js';
import { quote } from '../texts.js';
import { defineTool } from './registry.js';
import { CampaignSchema, CampaignStatusSchema, Id, Input, Output } from './schemas.js';

export default defineTool({
  name: 'start_campaign',
  description:
    "Lance une campagne en brouillon, ou reprend une campagne en pause (permission approve : un agent ne lance pas seul un envoi en " +
    "nombre). Les messages partent ensuite au rythme des quotas de chaque boîte ; la clé qui lance est celle sous laquelle ils partent " +
    "(ses plafonds comptent). Une campagne terminée ne repart pas (campaign_not_startable).",
  input: Input({ campaign_id: Id('campaign') }),
  output: Output({ campaign: CampaignSchema, was: CampaignStatusSchema }),
  permission: ['approve'],
  verifiedRequired: true,
  effect: 'write',
  async handler({ rt, access }, input) {
    return startCampaign(rt, access, input.campaign_id);
  },
  text: (out) =>
    out.was === 'running'
      ? `La campagne ${quote(out.campaign.name)} était déjà en cours ; rien n'a changé.`
      : `Campagne ${quote(out.campaign.name)} ${out.was === 'paused' ? 'reprise' : 'lancée'}. Suivez-la avec campaign_status.`,
});
