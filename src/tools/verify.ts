import { Type } from '@sinclair/typebox';
import { verifySpace } from '../../actors/human.js';
import { maskEmail } from '../texts.js';
import { defineTool } from './registry.js';
import { Input, Notice, Output } from './schemas.js';

export const CodeParam = Type.String({
  pattern: '^\\s*[0-9]{6}\\s*$',
  description: 'code à 6 chiffres reçu par e-mail',
});

export default defineTool({
  name: 'verify',
  description:
    "Vérifie l'espace avec le code à 6 chiffres que l'humain a reçu après attach_human : son adresse devient celle de l'humain de " +
    "l'espace et les outils réservés aux espaces vérifiés s'ouvrent (envoi, clés, boîtes, domaines, webhook). 10 essais par code ; " +
    'au-delà, ou après 15 minutes, demandez un nouveau code avec attach_human.',
  input: Input({ code: CodeParam }),
  output: Output({
    verified: Type.Literal(true),
    human_email: Type.String({ description: "adresse masquée de l'humain rattaché" }),
    notice: Notice,
  }),
  permission: 'any',
  verifiedRequired: false,
  effect: 'write',
  async handler({ rt, access }, input) {
    const email = await verifySpace(rt, access, input.code.trim());
    return { verified: true as const, human_email: maskEmail(email)! };
  },
  hints: { idempotent: true },
  notice: () => 'Les envois, clés, boîtes, domaines et webhooks sont maintenant ouverts.',
  text: (out) => `Espace vérifié ; humain rattaché : ${out.human_email}.`,
});
