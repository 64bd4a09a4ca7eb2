import { Type } from '@sinclair/typebox';
import { addManualSuppression, suppressionValue } from '../../actors/suppression.js';
import { MailboxError } from '../errors.js';
import { suppressionLine } from '../texts/space.js';
import { lines } from '../texts/lists.js';
import { defineTool } from './registry.js';
import { Input, Notice, Output, SuppressionSchema } from './schemas.js';

export default defineTool({
  name: 'add_suppression',
  description:
    "Bloque une adresse ou un domaine (« @exemple.fr » ou « exemple.fr ») pour tout l'espace : plus aucun envoi vers eux. " +
    'reason est votre motif, gardé avec le blocage. Un blocage déjà plus fort (désabonnement, plainte) reste tel quel. ' +
    'Se lève avec remove_suppression.',
  input: Input({
    value: Type.String({ minLength: 3, maxLength: 254, description: 'adresse, ou domaine (@exemple.fr)' }),
    reason: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'motif, 200 caractères au plus' })),
  }),
  output: Output({
    created: Type.Boolean({ description: 'false : un blocage était déjà en place, il est rendu' }),
    entry: SuppressionSchema,
    notice: Notice,
  }),
  permission: ['send', 'approve'],
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
    const { created, entry } = await addManualSuppression(rt, access, target, input.reason?.trim() || null);
    return { created, entry: { ...entry, note: entry.note ?? null } };
  },
  hints: { idempotent: true },
  notice: (out) =>
    out.entry.reason === 'manual' || out.entry.reason === 'bounce'
      ? `Levez-le avec remove_suppression (value ${out.entry.value}) si besoin.`
      : null,
  text: (out) =>
    lines(
      out.created ? "Blocage ajouté pour tout l'espace." : "Déjà bloqué ; rien n'a changé.",
      suppressionLine(out.entry),
    ),
});
