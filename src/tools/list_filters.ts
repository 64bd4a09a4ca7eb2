import { Type } from '@sinclair/typebox';
import { readFilters, visibleFilters } from '../../actors/filter.js';
import { visibleInbox } from '../../actors/inbox.js';
import { countOf, items, lines } from '../texts/lists.js';
import { filterLine } from '../texts/space.js';
import { ofInbox } from '../mail/filters.js';
import { defineTool } from './registry.js';
import { FilterSchema, Id, Input, Output } from './schemas.js';

export default defineTool({
  name: 'list_filters',
  description:
    "Liste les filtres, du plus ancien au plus récent. Avec inbox_id : ceux de cette boîte et ceux de tout l'espace, c'est-à-dire tous " +
    "ceux qui s'appliquent à elle. Une clé limitée à des boîtes voit ceux de ses boîtes et ceux de tout l'espace.",
  input: Input({ inbox_id: Type.Optional(Id('inbox')) }),
  output: Output({ items: Type.Array(FilterSchema) }),
  permission: ['read'],
  verifiedRequired: false,
  effect: 'read-only',
  async handler({ rt, access }, input) {
    const inboxId = input.inbox_id ? (await visibleInbox(rt, access, input.inbox_id, { live: false })).id : null;
    const filters = visibleFilters(access, await readFilters(rt, access.space.id));
    return { items: inboxId ? ofInbox(filters, inboxId) : filters };
  },
  text: (out, input) =>
    lines(
      `${countOf(out.items.length, 'filtre', 'filtres', 'Aucun filtre')}${input.inbox_id ? ` pour la boîte ${input.inbox_id} (les siens et ceux de tout l'espace)` : ''}, du plus ancien au plus récent${out.items.length ? ' :' : '.'}`,
      items(out.items, (f) => [filterLine(f)]),
    ),
});
