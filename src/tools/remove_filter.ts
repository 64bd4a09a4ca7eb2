import { removeFilter } from '../../actors/filter.js';
import { filterLine } from '../texts/space.js';
import { lines } from '../texts/lists.js';
import { defineTool } from './registry.js';
import { FilterSchema, Id, Input, Output } from './schemas.js';

export default defineTool({
  name: 'remove_filter',
  description:
    "Retire un filtre (flt_...). Un filtre de tout l'espace ne se retire qu'avec une clé sans restriction de boîtes. " +
    "Retirer le dernier allow d'une boîte rouvre la boîte à tous les correspondants non bloqués.",
  input: Input({ filter_id: Id('filter') }),
  output: Output({ removed: FilterSchema }),
  permission: ['manage_inboxes', 'approve'],
  verifiedRequired: false,
  effect: 'write',
  async handler({ rt, access }, input) {
    return { removed: await removeFilter(rt, access, input.filter_id) };
  },
  hints: { destructive: true, idempotent: true },
  text: (out) => lines('Filtre retiré.', filterLine(out.removed)),
});
