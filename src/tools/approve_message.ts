import { Type } from '@sinclair/typebox';
import { approveMessage } from '../../actors/draft.js';
import { parisMoment } from '../texts.js';
import { lines } from '../texts/lists.js';
import { messageLines } from '../texts/mail.js';
import { inboxLines } from '../texts/space.js';
import { defineTool } from './registry.js';
import { Id, InboxSchema, Input, IsoDate, MessageSchema, Notice, Output } from './schemas.js';

export default defineTool({
  name: 'approve_message',
  description:
    "Valide un brouillon : il entre dans la file et part dans la fenêtre d'envoi, sous le quota du jour et espacé des autres. " +
    'Donnez la révision lue (revision du message) : si le brouillon a changé depuis, la validation est refusée (revision_mismatch) ' +
    "pour ne jamais valider un texte que personne n'a relu. Demande une offre en cours pour écrire à un tiers.",
  input: Input({
    message_id: Id('message'),
    revision: Type.String({
      minLength: 1,
      maxLength: 20,
      description: 'la révision du brouillon lue avant de valider',
    }),
  }),
  output: Output({ message: MessageSchema, estimated_send_at: IsoDate, inbox: InboxSchema, notice: Notice }),
  permission: ['approve'],
  verifiedRequired: true,
  effect: 'write',
  async handler({ rt, access }, input) {
    return approveMessage(rt, access, input.message_id, input.revision);
  },
  hints: { openWorld: true, idempotent: true },
  notice: (out) =>
    `Départ estimé ${parisMoment(Date.parse(out.estimated_send_at))} (heure de Paris). Suivez-le avec get_message (message_id ${out.message.id}) ; ` +
    'annulez-le avant son départ avec cancel_message si besoin.',
  text: (out, _input, frames) =>
    lines(
      `Brouillon ${out.message.id} validé (révision ${out.message.revision}) et mis en file.`,
      messageLines(out.message, frames),
      inboxLines(out.inbox),
    ),
});
