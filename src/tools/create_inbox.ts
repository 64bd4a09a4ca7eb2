import { Type } from '@sinclair/typebox';
import { sendingDomainFor } from '../../actors/domain.js';
import { createInbox } from '../../actors/inbox.js';
import { inboxView } from '../../actors/stored-records.js';
import { MailboxError } from '../errors.js';
import { checkUsername, normaliseDomain } from '../domains/names.js';
import { carriesSecret } from '../secrets.js';
import { lines } from '../texts/lists.js';
import { inboxLines } from '../texts/space.js';
import { defineTool } from './registry.js';
import { DomainName, InboxSchema, Input, withNotice } from './schemas.js';

export default defineTool({
  name: 'create_inbox',
  description:
    "Crée une boîte <username>@<domaine> sur un domaine d'envoi de l'espace : son propre domaine vérifié, sinon le domaine commun " +
    "(boîte partagée, qui ne répond qu'aux personnes qui ont écrit d'abord). Elle reçoit aussitôt ; ses envois démarrent en montée " +
    "en charge (5 par jour la première semaine, puis 10, 15, 20). Nombre de boîtes plafonné par l'offre ; sans offre, une seule boîte. " +
    'Sur le domaine commun, un nom de 3 à 32 caractères, jamais réattribué.',
  input: Input({
    username: Type.String({
      minLength: 1,
      maxLength: 64,
      pattern: '^[a-z0-9._-]+$',
      description: 'partie avant @ : minuscules, chiffres, « . », « _ », « - »',
    }),
    domain: Type.Optional(DomainName),
    display_name: Type.String({
      minLength: 1,
      maxLength: 100,
      description: "nom affiché dans l'expéditeur, au plus 100 caractères",
    }),
  }),
  output: withNotice(InboxSchema),
  permission: ['manage_inboxes'],
  verifiedRequired: true,
  effect: 'write',
  async handler({ rt, access }, input) {
    if (access.key.inbox_ids) {
      throw new MailboxError('forbidden', null, {
        reason: 'Une clé restreinte à certaines boîtes ne peut pas en créer.',
      });
    }
    const displayName = input.display_name.trim();
    if (!displayName || /[\u0000-\u001f\u007f]/.test(displayName)) {
      throw new MailboxError(
        'invalid_argument',
        { parameter: 'display_name' },
        { reason: 'une ligne de texte non vide est attendue.' },
      );
    }
    if (carriesSecret(displayName, access.space.id))
      throw new MailboxError('secret_in_message', { parameter: 'display_name' });
    if (carriesSecret(input.username, access.space.id))
      throw new MailboxError('secret_in_message', { parameter: 'username' });
    const requested = input.domain === undefined ? null : normaliseDomain(input.domain);
    const { domain, shared } = await sendingDomainFor(rt, access.space.id, requested);
    checkUsername(input.username, shared);
    const inbox = await createInbox(rt, access, {
      username: input.username,
      domain,
      shared,
      display_name: displayName,
    });
    return inboxView(rt.config, access.space.plan, inbox, rt.clock.now(), { next: null, sentToday: 0 });
  },
  notice: (out) =>
    out.shared
      ? `Elle reçoit dès maintenant. Elle ne répond qu'aux personnes qui lui écrivent d'abord : attendez leur message, puis reply_to_thread.`
      : `Elle reçoit dès maintenant. Écrivez avec send_email (inbox_id ${out.id}), au rythme de la montée en charge.`,
  text: (out) => lines(`Boîte créée : ${out.address}.`, inboxLines(out)),
});
