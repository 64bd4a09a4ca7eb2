import { Type } from '@sinclair/typebox';
import { addFilter } from '../../actors/filter.js';
import { visibleInbox } from '../../actors/inbox.js';
import { filterValue } from '../mail/filters.js';
import { filterLine } from '../texts/space.js';
import { lines } from '../texts/lists.js';
import { defineTool } from './registry.js';
import { FilterSchema, Id, Input, Notice, Output } from './schemas.js';

export default defineTool({
  name: 'add_filter',
  description:
    "Ajoute un filtre à une boîte (inbox_id) ou à tout l'espace (sans inbox_id). direction receive : courrier reçu ; send : envois. " +
    "action block : le correspondant est refusé ; allow : dès qu'un allow existe pour la boîte ou l'espace, seuls les correspondants " +
    "autorisés passent (en réception, seulement si le domaine de l'expéditeur est authentifié : DMARC, DKIM ou SPF alignés). " +
    'value : une adresse, un domaine (exemple.fr) ou un domaine et ses sous-domaines (.exemple.fr). Au plus 1 000 filtres par espace. ' +
    'Un filtre identique déjà en place est rendu tel quel. Se retire avec remove_filter.',
  input: Input({
    inbox_id: Type.Optional(Id('inbox', "boîte concernée ; absent : tout l'espace")),
    direction: FilterSchema.properties.direction,
    action: FilterSchema.properties.action,
    value: Type.String({
      minLength: 1,
      maxLength: 254,
      description: 'adresse, domaine (exemple.fr) ou .exemple.fr (sous-domaines compris)',
    }),
  }),
  output: Output({
    created: Type.Boolean({ description: 'false : le même filtre était déjà en place, il est rendu' }),
    filter: FilterSchema,
    notice: Notice,
  }),
  permission: ['manage_inboxes', 'approve'],
  verifiedRequired: false,
  effect: 'write',
  async handler({ rt, access }, input) {
    const value = filterValue(input.value);
    const inboxId = input.inbox_id ? (await visibleInbox(rt, access, input.inbox_id, { live: true })).id : null;
    return addFilter(rt, access, { inbox_id: inboxId, direction: input.direction, action: input.action, value });
  },
  hints: { idempotent: true },
  notice: (out) => `Retirez-le avec remove_filter (filter_id ${out.filter.id}) si besoin.`,
  text: (out) =>
    lines(out.created ? 'Filtre ajouté.' : "Ce filtre était déjà en place ; rien n'a changé.", filterLine(out.filter)),
});
