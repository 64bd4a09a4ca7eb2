import { Type } from '@sinclair/typebox';
import { deleteInbox } from '../../actors/inbox.js';
import { plural } from '../texts.js';
import { defineTool } from './registry.js';
import { Confirm, Id, Input, Output } from './schemas.js';

export default defineTool({
  name: 'delete_inbox',
  description:
    'Supprime une boîte, sans retour : ses brouillons et messages en file sont annulés, son adresse cesse de recevoir et son compte ' +
    "de messagerie est retiré ; ses fils restent lisibles dans le journal. Une adresse du domaine commun n'est jamais réattribuée. " +
    'Refusé pour une boîte suspendue (demandez sa revue avec request_inbox_review).',
  input: Input({ inbox_id: Id('inbox'), confirm: Confirm }),
  output: Output({
    cancelled_messages: Type.Integer({ description: 'brouillons et messages en file annulés' }),
    deleted: Id('inbox'),
    remote_account_removed: Type.Boolean({ description: 'compte de messagerie retiré du serveur de courrier' }),
  }),
  permission: ['manage_inboxes'],
  verifiedRequired: false,
  effect: 'write, irreversible',
  async handler({ rt, access }, input) {
    const { cancelled_messages } = await deleteInbox(rt, access, input.inbox_id);
    // Every inbox's mail account is the service's own: deleting the inbox removes it (never one attached by an administrator yet).
    return { cancelled_messages, deleted: input.inbox_id, remote_account_removed: true };
  },
  hints: { idempotent: true },
  text: (out) =>
    `Boîte ${out.deleted} supprimée : son adresse ne reçoit plus ; ses fils restent lisibles. ${plural(out.cancelled_messages, 'message annulé', 'messages annulés')} ` +
    `(brouillons et file)${out.remote_account_removed ? ' ; compte de messagerie retiré du serveur de courrier' : ''}.`,
});
