import { messageView, visibleMessage } from '../../actors/message.js';
import { actorOf } from '../../actors/space.js';
import { cancelMessage } from '../../actors/waiting.js';
import { quote } from '../texts.js';
import { defineTool } from './registry.js';
import { Id, Input, MessageSchema } from './schemas.js';

export default defineTool({
  name: 'cancel_message',
  description:
    "Annule un brouillon ou un message en file : il ne partira pas (statut cancelled) et sa place du jour dans la file est rendue. " +
    "Un message déjà parti, en cours d'envoi ou déjà annulé ne s'annule plus (not_cancellable).",
  input: Input({ message_id: Id('message') }),
  output: MessageSchema,
  permission: ['send', 'approve'],
  verifiedRequired: false,
  effect: 'write',
  async handler({ rt, access }, input) {
    const message = await visibleMessage(rt, access, input.message_id);
    return messageView(await cancelMessage(rt, access.space.id, actorOf(access), message, { inboxDeleted: false }));
  },
  text: (out) => `Message ${out.id} annulé : ${quote(out.subject)} pour ${quote(out.to)} ne partira pas.`,
});
