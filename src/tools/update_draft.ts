import { Type } from '@sinclair/typebox';
import { updateDraft } from '../../actors/draft.js';
import { messageViews } from '../../actors/message.js';
import { attachmentNames, checkOutgoingFiles } from '../../actors/attachments.js';
import { MailboxError } from '../errors.js';
import { checkPlaceholders, checkSecrets, oneLine, SUBJECT_MAX_CHARS } from '../sending/validate.js';
import { lines } from '../texts/lists.js';
import { draftNextStep, messageLines } from '../texts/mail.js';
import { recipientList } from '../sending/recipients.js';
import { defineTool } from './registry.js';
import { BODY_PARAMETERS } from './send_email.js';
import { AttachmentsInput, HTML_MAX_CHARS, Id, Input, MessageSchema, TEXT_MAX_CHARS, withNotice } from './schemas.js';

export default defineTool({
  name: 'update_draft',
  description:
    "Corrige l'objet, le texte, la version HTML ou les fichiers joints d'un brouillon tant qu'il n'est pas validé ; html vide retire " +
    'la version HTML, attachments remplace la liste des fichiers. ' +
    "Chaque correction change la révision (une validation de l'ancienne est refusée) et s'inscrit au journal avec son auteur. " +
    "cc et bcc remplacent les copies, chaque adresse soumise aux règles d'un envoi. " +
    'Le destinataire (to) et la boîte ne changent pas : annulez (cancel_message) et écrivez un nouveau message.',
  input: Input({
    message_id: Id('message'),
    subject: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: SUBJECT_MAX_CHARS,
        description: `une ligne, au plus ${SUBJECT_MAX_CHARS} caractères`,
      }),
    ),
    text: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: TEXT_MAX_CHARS,
        description: 'nouveau texte ; seul {{unsubscribe_url}} est permis entre doubles accolades',
      }),
    ),
    html: Type.Optional(
      Type.String({ maxLength: HTML_MAX_CHARS, description: 'nouvelle version HTML ; vide : la retire' }),
    ),
    attachments: Type.Optional({
      ...AttachmentsInput,
      description: 'nouvelle liste des fichiers, qui remplace la précédente ; [] les retire tous',
    }),
    cc: BODY_PARAMETERS.cc,
    bcc: BODY_PARAMETERS.bcc,
  }),
  output: withNotice(MessageSchema),
  permission: ['send', 'approve'],
  verifiedRequired: false,
  effect: 'write',
  async handler({ rt, access }, input) {
    if (
      [input.subject, input.text, input.html, input.attachments, input.cc, input.bcc].every(
        (value) => value === undefined,
      )
    ) {
      throw new MailboxError(
        'invalid_argument',
        { parameter: 'text' },
        { reason: 'donnez au moins subject, text, html, attachments, cc ou bcc.' },
      );
    }
    const cc = input.cc && recipientList(input.cc, 'cc');
    const bcc = input.bcc && recipientList(input.bcc, 'bcc');
    const subject = input.subject === undefined ? undefined : oneLine(input.subject, 'subject');
    if (subject === '') throw new MailboxError('invalid_argument', { parameter: 'subject' }, { reason: 'objet vide.' });
    checkPlaceholders({ subject, text: input.text, html: input.html });
    checkSecrets(access.space.id, {
      subject,
      text: input.text,
      html: input.html,
      attachments: attachmentNames(input.attachments),
    });
    const attachments =
      input.attachments && (await checkOutgoingFiles(rt, access.space.id, access.key.inbox_ids, input.attachments));
    const draft = await updateDraft(rt, access, input.message_id, {
      subject,
      text: input.text,
      html: input.html,
      attachments,
      cc,
      bcc,
    });
    return (await messageViews(rt, access.space.id, [draft]))[0]!;
  },
  hints: { destructive: true },
  notice: (out) =>
    `Cette correction est la révision ${out.revision} ; une validation d'une révision plus ancienne est refusée. ${draftNextStep(out)}`,
  text: (out, _input, frames) => lines(`Brouillon ${out.id} corrigé.`, messageLines(out, frames)),
});
