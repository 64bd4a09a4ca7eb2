import { messageViews, visibleMessage } from '../../actors/message.js';
import { actorOf } from '../../actors/space.js';
import { cancelMessage } from '../../actors/waiting.js';
import { quoteLine } from '../texts.js';
import { lines } from '../texts/lists.js';
import { messageLines } from '../texts/mail.js';
import { defineTool } from './registry.js';
import { Id, Input, MessageSchema } from './schemas.js';

export default defineTool({
  name: 'cancel_message',
  description:
    'Annule un brouillon ou un message en file : il ne partira pas (statut cancelled) et sa place du jour dans la file est rendue. ' +
    "Un message déjà parti, en cours d'envoi ou déjà annulé ne s'annule plus (not_cancellable).",
  input: Input({ message_id: Id('message') }),
  output: MessageSchema,
  permission: ['send', 'approve'],
  verifiedRequired: false,
  effect: 'write',
  async handler({ rt, access }, input) {
    const message = await visibleMessage(rt, access, input.message_id);
    return (
      await messageViews(rt, access.space.id, [
        await cancelMessage(rt, access.space.id, actorOf(access), message, { inboxDeleted: false }),
      ])
    )[0]!;
  },
  hints: { destructive: true, idempotent: true },
  text: (out, _input, frames) =>
    lines(
      `Message ${out.id} annulé : ${quoteLine(out.subject)} pour ${quoteLine(out.to)} ne partira pas.`,
      messageLines(out, frames),
    ),
});
