import { Type } from '@sinclair/typebox';
import { replyAllCopies } from '../../actors/message.js';
import { visibleThread } from '../../actors/thread.js';
import { MailboxError } from '../errors.js';
import { COPIES_MAX, recipientList } from '../sending/recipients.js';
import { isAddress } from '../sending/validate.js';
import { defineTool } from './registry.js';
import { Id, Input } from './schemas.js';
import { replySubject } from '../texts.js';
import { BODY_PARAMETERS, SendOutput, sendNotice, sendOutbound, sendText } from './send_email.js';

export default defineTool({
  name: 'reply_to_thread',
  description:
    "Répond dans un fil à son correspondant (le destinataire et l'objet « Re: » viennent du fil ; In-Reply-To et References suivent " +
    'la conversation). reply_all écrit aussi, en copie, aux autres personnes du message auquel on répond (son expéditeur, ses ' +
    "destinataires et ses copies, les boîtes de l'espace exclues) ; cc et bcc ajoutent des copies. C'est la seule façon d'écrire depuis " +
    'une boîte du domaine commun, et seulement après que le correspondant a écrit. La réponse entre dans la file comme tout message ' +
    '(quota, espacement) ; quand le correspondant a écrit, elle part dès que la boîte a du quota, avant les premiers messages qui ' +
    "attendent la fenêtre d'envoi. Au plus trois messages en 24 h dans un fil sans réponse du correspondant. dry_run vérifie tout sans rien écrire.",
  input: Input({
    thread_id: Id('thread'),
    reply_all: Type.Optional(
      Type.Boolean({
        description: "vrai : en copie aussi les autres personnes du message auquel on répond (hors boîtes de l'espace)",
      }),
    ),
    ...BODY_PARAMETERS,
  }),
  output: SendOutput,
  permission: ['send'],
  verifiedRequired: true,
  effect: 'write',
  async handler(ctx, input) {
    const cc = recipientList(input.cc, 'cc');
    const bcc = recipientList(input.bcc, 'bcc');
    const thread = await visibleThread(ctx.rt, ctx.access, input.thread_id);
    // A received mail without a usable From opened it: a reply would wait in the queue for nobody.
    if (!isAddress(thread.contact)) {
      throw new MailboxError(
        'invalid_argument',
        { parameter: 'thread_id' },
        {
          reason:
            "ce fil n'a pas de correspondant : le message reçu ne donnait aucune adresse d'expéditeur utilisable (From). Écrivez avec send_email si vous connaissez l'adresse.",
        },
      );
    }
    if (input.reply_all) {
      const given = new Set([...cc, ...bcc].map((m) => m.address));
      cc.push(...(await replyAllCopies(ctx.rt, ctx.access, thread)).filter((m) => !given.has(m.address)));
      if (cc.length > COPIES_MAX) {
        throw new MailboxError(
          'invalid_argument',
          { parameter: 'reply_all' },
          {
            reason: `les personnes du message auquel vous répondez et les copies données font ${cc.length} copies visibles, au plus ${COPIES_MAX}. Retirez-en de cc, ou écrivez sans reply_all.`,
          },
        );
      }
    }
    return sendOutbound(ctx, input, {
      inboxId: thread.inbox_id,
      thread,
      to: thread.contact,
      toName: thread.contact_name || null,
      cc,
      bcc,
      subject: replySubject(thread.subject),
      replyTo: null,
      test: false,
    });
  },
  hints: { openWorld: true },
  notice: sendNotice,
  text: (out, _input, frames) => sendText(out, frames),
});
