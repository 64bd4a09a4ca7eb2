import { Type } from '@sinclair/typebox';
import { createAudience } from '../../actors/audience.js';
import { oneLine } from '../sending/validate.js';
import { audienceLine } from '../texts/campaigns.js';
import { lines } from '../texts/lists.js';
import { defineTool } from './registry.js';
import { AudienceSchema, Input, Notice, Output } from './schemas.js';

export default defineTool({
  name: 'create_audience',
  description:
    "Crée une audience : une liste nommée de contacts de l'espace, que des campagnes visent (create_campaign). " +
    'Ajoutez-lui des contacts avec add_contacts.',
  input: Input({ name: Type.String({ minLength: 1, maxLength: 120, description: "nom de l'audience, une ligne" }) }),
  output: Output({ audience: AudienceSchema, notice: Notice }),
  permission: ['send', 'approve'],
  verifiedRequired: false,
  effect: 'write',
  async handler({ rt, access }, input) {
    return { audience: await createAudience(rt, access, oneLine(input.name, 'name')) };
  },
  notice: (out) => `Ajoutez-lui des contacts avec add_contacts (audience_id ${out.audience.id}).`,
  text: (out) => lines('Audience créée.', audienceLine(out.audience)),
});
