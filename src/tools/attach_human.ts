import { Type } from '@sinclair/typebox';
import { parseAddress } from '../sending/validate.js';
import { attachHuman } from '../../actors/human.js';
import { iso } from '../clock.js';
import { maskEmail, parisMoment } from '../texts.js';
import { defineTool } from './registry.js';
import { Input, IsoDate, Notice, Output } from './schemas.js';

export default defineTool({
  name: 'attach_human',
  description:
    "Rattache (ou remplace) l'humain de l'espace : un code à 6 chiffres part à son adresse, valable 15 minutes. L'humain le donne " +
    "à l'agent, qui appelle verify : l'adresse est alors rattachée et l'espace vérifié. Jusque-là rien ne change. Règles des codes : " +
    '60 s entre deux envois (code_too_soon), au plus 5 codes en 24 h (code_limit), 10 essais par code.',
  input: Input({ email: Type.String({ minLength: 3, maxLength: 254, description: "adresse e-mail de l'humain" }) }),
  output: Output({
    human_email: Type.String({ description: 'adresse masquée où le code est parti' }),
    code_sent: Type.Boolean(),
    expires_at: IsoDate,
    notice: Notice,
  }),
  permission: ['approve'],
  verifiedRequired: false,
  effect: 'write',
  async handler({ rt, access }, input) {
    const email = parseAddress(input.email, 'email');
    const expiresAt = await attachHuman(rt, access, email);
    return { human_email: maskEmail(email)!, code_sent: true, expires_at: iso(expiresAt) };
  },
  hints: { openWorld: true },
  notice: () => "Demandez le code à l'humain, puis appelez verify avec ce code.",
  text: (out) =>
    `Code envoyé à ${out.human_email}, valable jusqu'à ${parisMoment(Date.parse(out.expires_at))} (heure de Paris).`,
});
