import { deleteAudience } from '../../actors/audience.js';
import { audienceLine } from '../texts/campaigns.js';
import { lines } from '../texts/lists.js';
import { defineTool } from './registry.js';
import { AudienceSchema, Confirm, Id, Input, Output } from './schemas.js';

export default defineTool({
  name: 'delete_audience',
  description:
    "Supprime une audience (confirm: true). Ses contacts restent connus de l'espace, avec leurs fils. Refusé (audience_in_use) " +
    "tant qu'une campagne en cours ou en pause l'utilise.",
  input: Input({ audience_id: Id('audience'), confirm: Confirm }),
  output: Output({ deleted: AudienceSchema }),
  permission: ['approve'],
  verifiedRequired: false,
  effect: 'write, irreversible',
  async handler({ rt, access }, input) {
    return { deleted: await deleteAudience(rt, access, input.audience_id) };
  },
  hints: { idempotent: true },
  text: (out) =>
    lines("Audience supprimée ; ses contacts restent dans l'espace, avec leurs fils.", audienceLine(out.deleted)),
});
