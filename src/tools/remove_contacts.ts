import { Type } from '@sinclair/typebox';
import { MAX_CONTACTS_PER_CALL, removeContacts } from '../../actors/audience.js';
import { plural } from '../texts.js';
import { defineTool } from './registry.js';
import { Id, Input, Output } from './schemas.js';

export default defineTool({
  name: 'remove_contacts',
  description:
    `Retire des adresses d'une audience (au plus ${MAX_CONTACTS_PER_CALL} par appel). Le contact reste connu de l'espace ; une ` +
    "campagne en cours ne lui écrit plus si elle ne lui a pas encore écrit. Les adresses absentes de l'audience sont ignorées.",
  input: Input({
    audience_id: Id('audience'),
    emails: Type.Array(Type.String({ minLength: 1, maxLength: 254 }), { minItems: 1, maxItems: MAX_CONTACTS_PER_CALL }),
  }),
  output: Output({ removed: Type.Integer() }),
  permission: ['send', 'approve'],
  verifiedRequired: false,
  effect: 'write',
  async handler({ rt, access }, input) {
    return { removed: await removeContacts(rt, access, input.audience_id, input.emails) };
  },
  hints: { destructive: true, idempotent: true },
  text: (out) =>
    `${plural(out.removed, 'contact retiré', 'contacts retirés')} de l'audience ; ils restent connus de l'espace.`,
});
