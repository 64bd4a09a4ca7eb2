import { Type } from '@sinclair/typebox';
import { updateDraft } from '../../actors/draft.js';
import { messageView } from '../../actors/message.js';
import { attachmentNames, checkOutgoingFiles } from '../../actors/attachments.js';
import { MailboxError } from '../errors.js';
import { checkPlaceholders, checkSecrets, oneLine } from '../sending/validate.js';
import { quote } from '../texts.js';
import { defineTool } from './registry.js';
import { AttachmentsInput, HTML_MAX_CHARS, Id, Input, MessageSchema, TEXT_MAX_CHARS } from './schemas.js';

export default defineTool({
  name: 'update_draft',
  description:
    "Corrige l'objet, le texte, la version HTML ou les fichiers joints d'un brouillon tant qu'il n'est pas validé ; html vide retire " +
    "la version HTML, attachments remplace la liste des fichiers. " +
    "Chaque correction change la révision (une validation de l'ancienne est refusée) et s'inscrit au journal avec son auteur. " +
    "Le destinataire et la boîte ne changent pas : annulez (cancel_message) et écrivez un nouveau message.",
  input: Input({
    message_id: Id('message'),
    subject: Type.Optional(Type.String({ minLength: 1, maxLength: 300, description: 'une ligne, au plus 300 caractères' })),
    text: Type.Optional(Type.String({ minLength: 1, maxLength: TEXT_MAX_CHARS, description: 'nouveau texte ; seul {{unsubscribe_url}} est permis entre doubles accolades' })),
    html: Type.Optional(Type.String({ maxLength: HTML_MAX_CHARS, description: 'nouvelle version HTML ; vide : la retire' })),
    attachments: Type.Optional({ ...AttachmentsInput, description: 'nouvelle liste des fichiers, qui remplace la précédente ; [] les retire tous' }),
  }),
  output: MessageSchema,
  permission: ['send', 'approve'],
  verifiedRequired: false,
  effect: 'write',
  async handler({ rt, access }, input) {
    if (input.subject === undefined && input.text === undefined && input.html === undefined && input.attachments === undefined) {
      throw new MailboxError('invalid_argument', { parameter: 'text' }, { reason: 'donnez au moins subject, text, html ou attachments.' });
    }
    const subject = input.subject === undefined ? undefined : oneLine(input.subject, 'subject');
    if (subject === '') throw new MailboxError('invalid_argument', { parameter: 'subject' }, { reason: 'objet vide.' });
    checkPlaceholders({ subject, text: input.text, html: input.html });
    checkSecrets(access.space.id, { subject, text: input.text, html: input.html, attachments: attachmentNames(input.attachments) });
    const attachments = input.attachments && (await checkOutgoingFiles(rt, access.space.id, access.key.inbox_ids, input.attachments));
    return messageView(await updateDraft(rt, access, input.message_id, { subject, text: input.text, html: input.html, attachments }));
  },
  text: (out) => `Brouillon ${out.id} corrigé : ${quote(out.subject)}, révision ${out.revision}. Validez cette révision avec approve_message.`,
});
