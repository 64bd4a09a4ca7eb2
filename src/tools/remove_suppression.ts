import { Type } from '@sinclair/typebox';
import { removeSuppression, suppressionValue } from '../../actors/suppression.js';
import { MailboxError } from '../errors.js';
import { suppressionLine } from '../texts/space.js';
import { lines } from '../texts/lists.js';
import { defineTool } from './registry.js';
import { Input, Output, SuppressionSchema } from './schemas.js';

export default defineTool({
  name: 'remove_suppression',
  description:
    'Lève un blocage manuel ou dû à un rebond. Un désabonnement ou une plainte ne se lève pas par un outil (suppression_locked) : ' +
    'seule la personne peut écrire à nouveau.',
  input: Input({
    value: Type.String({ minLength: 3, maxLength: 254, description: 'adresse, ou domaine (@exemple.fr)' }),
  }),
  output: Output({ removed: SuppressionSchema }),
  permission: ['approve'],
  verifiedRequired: false,
  effect: 'write',
  async handler({ rt, access }, input) {
    const target = suppressionValue(input.value);
    if (!target)
      throw new MailboxError(
        'invalid_argument',
        { parameter: 'value' },
        { reason: 'ni une adresse e-mail ni un domaine.' },
      );
    const entry = await removeSuppression(rt, access, target.value);
    return { removed: { ...entry, note: entry.note ?? null } };
  },
  hints: { destructive: true, idempotent: true },
  text: (out) =>
    lines(
      `Blocage levé : les envois vers ${out.removed.value} sont de nouveau possibles.`,
      suppressionLine(out.removed),
    ),
});
