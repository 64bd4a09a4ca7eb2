import { Type } from '@sinclair/typebox';
import { requestInboxReview } from '../../actors/inbox.js';
import { liveInboxView } from '../../actors/stored-records.js';
import { MailboxError } from '../errors.js';
import { carriesSecret } from '../secrets.js';
import { quote } from '../texts.js';
import { lines } from '../texts/lists.js';
import { inboxLines } from '../texts/space.js';
import { defineTool } from './registry.js';
import { Id, InboxSchema, Input, withNotice } from './schemas.js';

export default defineTool({
  name: 'request_inbox_review',
  description:
    "Demande la reprise d'une boîte suspendue par le disjoncteur : suspension.review passe à requested et un administrateur du service " +
    "l'examine ; la reprise est manuelle. Le message (facultatif) explique ce qui a été corrigé. Renvoie l'objet boîte.",
  input: Input({
    inbox_id: Id('inbox'),
    message: Type.Optional(
      Type.String({ minLength: 1, maxLength: 1000, description: "pour l'administrateur, au plus 1000 caractères" }),
    ),
  }),
  output: withNotice(InboxSchema),
  permission: ['approve'],
  verifiedRequired: false,
  effect: 'write',
  async handler({ rt, access }, input) {
    const message = input.message?.trim() || null;
    if (message && carriesSecret(message, access.space.id))
      throw new MailboxError('secret_in_message', { parameter: 'message' });
    const inbox = await requestInboxReview(rt, access, input.inbox_id, message);
    return liveInboxView(rt, access.space.plan, access.space.id, inbox);
  },
  notice: () =>
    "Un administrateur du service l'examinera ; la boîte reste suspendue jusqu'à sa reprise (inbox_status dit où elle en est).",
  text: (out) => lines(`Reprise de la boîte ${quote(out.address)} demandée.`, inboxLines(out)),
});
