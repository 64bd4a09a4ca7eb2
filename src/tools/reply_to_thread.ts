import { visibleThread } from '../../actors/thread.js';
import { MailboxError } from '../errors.js';
import { isAddress } from '../sending/validate.js';
import { defineTool } from './registry.js';
import { Id, Input } from './schemas.js';
import { replySubject } from '../texts.js';
import { BODY_PARAMETERS, SendOutput, sendOutbound, sendText } from './send_email.js';


export default defineTool({
  name: 'reply_to_thread',
  description:
    "Répond dans un fil à son correspondant (le destinataire et l'objet « Re: » viennent du fil ; In-Reply-To et References suivent " +
    "la conversation). C'est la seule façon d'écrire depuis une boîte du domaine commun, et seulement après que le correspondant a écrit. " +
    "La réponse entre dans la file comme tout message (quota, espacement) ; quand le correspondant a écrit, elle peut partir hors de la " +
    "fenêtre d'envoi. Au plus trois messages en 24 h dans un fil sans réponse du correspondant. dry_run vérifie tout sans rien écrire.",
  input: Input({ thread_id: Id('thread'), ...BODY_PARAMETERS }),
  output: SendOutput,
  permission: ['send'],
  verifiedRequired: true,
  effect: 'write',
  async handler(ctx, input) {
    const thread = await visibleThread(ctx.rt, ctx.access, input.thread_id);
    // A received mail without a usable From opened it: a reply would wait in the queue for nobody.
    if (!isAddress(thread.contact)) {
      throw new MailboxError('invalid_argument', { parameter: 'thread_id' }, {
        reason: "ce fil n'a pas de correspondant : le message reçu ne donnait aucune adresse d'expéditeur utilisable (From). Écrivez avec send_email si vous connaissez l'adresse.",
      });
    }
    return sendOutbound(ctx, input, {
      inboxId: thread.inbox_id,
      thread,
      to: thread.contact,
      toName: thread.contact_name || null,
      subject: replySubject(thread.subject),
      replyTo: null,
      test: false,
    });
  },
  text: (out) => sendText(out),
});
