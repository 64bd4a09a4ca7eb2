import { Type } from '@sinclair/typebox';
import { cancelClosure, closureMoment, confirmClosure, requestClosure } from '../../actors/closure.js';
import { MailboxError } from '../errors.js';
import { plural } from '../texts.js';
import { defineTool } from './registry.js';
import { Input, IsoDate, Notice, Nullable, Output } from './schemas.js';
import { CodeParam } from './verify.js';

export default defineTool({
  name: 'close_space',
  description:
    "Ferme l'espace, en trois temps. 1) Sans paramètre : dit ce qui sera supprimé (boîtes, domaines, abonnement ; les factures " +
    "sont gardées) et envoie un code à 6 chiffres à l'humain, valable 15 minutes. 2) Avec confirmation_code : fermeture confirmée, " +
    "l'espace est effacé 48 heures plus tard et tout fonctionne jusque-là. 3) Avec cancel: true : annule la fermeture confirmée et " +
    'tout code en attente. Refusé pour un espace ouvert par un administrateur (space_managed).',
  input: Input({
    confirmation_code: Type.Optional(CodeParam),
    cancel: Type.Optional(
      Type.Boolean({ description: 'true : annule la fermeture confirmée et tout code en attente' }),
    ),
  }),
  output: Output({
    cancelled: Type.Boolean({ description: "une fermeture confirmée vient d'être annulée" }),
    closes_at: Nullable(IsoDate),
    code_sent: Type.Boolean(),
    expires_at: Nullable(IsoDate),
    human_email: Nullable(Type.String({ description: 'adresse masquée où part le code' })),
    removes: Output({
      inboxes: Type.Integer(),
      domains: Type.Integer(),
      subscription: Nullable(Type.String({ description: "l'offre dont le prélèvement s'arrête" })),
      invoices_kept: Type.Boolean(),
    }),
    scheduled: Type.Boolean({ description: 'fermeture confirmée, effacement à closes_at' }),
    notice: Notice,
  }),
  permission: ['approve'],
  verifiedRequired: false,
  effect: 'write',
  async handler({ rt, access }, input) {
    if (input.cancel && input.confirmation_code !== undefined) {
      throw new MailboxError(
        'invalid_argument',
        { parameter: 'cancel' },
        { reason: 'donnez soit confirmation_code, soit cancel, pas les deux.' },
      );
    }
    if (input.cancel) return cancelClosure(rt, access);
    if (input.confirmation_code !== undefined) return confirmClosure(rt, access, input.confirmation_code.trim());
    return requestClosure(rt, access);
  },
  hints: { openWorld: true, destructive: true },
  notice: (out) => {
    if (out.cancelled) return null;
    if (out.scheduled) return 'Tout fonctionne jusque-là ; annulez avec close_space et cancel: true.';
    if (out.code_sent)
      return `Demandez le code à l'humain, puis rappelez close_space avec confirmation_code pour confirmer (code valable jusqu'à ${closureMoment(out.expires_at!)}, heure de Paris).`;
    return 'Appelez close_space sans paramètre pour recevoir un code.';
  },
  text: (out) => {
    const what =
      `${plural(out.removes.inboxes, 'boîte', 'boîtes')}, ${plural(out.removes.domains, 'domaine', 'domaines')}` +
      `${out.removes.subscription ? `, abonnement ${out.removes.subscription}` : ''} ; factures ${out.removes.invoices_kept ? 'gardées' : 'supprimées'}`;
    if (out.cancelled) return "Fermeture annulée : l'espace reste ouvert.";
    if (out.scheduled)
      return `Fermeture confirmée : l'espace sera effacé le ${closureMoment(out.closes_at!)} (heure de Paris). Seront supprimés : ${what}.`;
    if (out.code_sent) return `Code de fermeture envoyé à ${out.human_email}. Seront supprimés : ${what}.`;
    return 'Aucune fermeture en cours.';
  },
});
