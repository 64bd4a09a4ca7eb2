import { Type } from '@sinclair/typebox';
import { deadAddress } from '../../actors/dead-addresses.js';
import { listSuppressions, suppressionValue } from '../../actors/suppression.js';
import { iso } from '../clock.js';
import { decodeCursor, encodeCursor } from '../cursor.js';
import { parisStamp } from '../texts.js';
import { countOf, items, lines, nextPage, pageEnd, sentences } from '../texts/lists.js';
import { suppressionLine } from '../texts/space.js';
import { defineTool } from './registry.js';
import { Cursor, Input, IsoDate, Limit, NextCursor, Notice, Nullable, Output, SuppressionSchema } from './schemas.js';

const DEFAULT_LIMIT = 20;

/** The dead-address entry's `at` (ms, or already a date), as an ISO date. */
function since(raw: string): string | null {
  const at = (JSON.parse(raw) as { at?: unknown }).at;
  if (typeof at === 'number') return iso(at);
  return typeof at === 'string' ? at : null;
}

export default defineTool({
  name: 'list_suppressions',
  description:
    "Liste les adresses et domaines bloqués de l'espace (désabonnements, plaintes, rebonds, ajouts manuels), le plus récent d'abord. " +
    "query filtre sur une partie d'adresse ou de domaine ; avec une adresse complète, dead_address dit aussi si elle est morte pour " +
    'toute la plateforme (personne ne peut plus lui écrire).',
  input: Input({
    query: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 254,
        description: "partie d'adresse ou de domaine ; adresse complète : test d'adresse morte",
      }),
    ),
    cursor: Type.Optional(Cursor),
    limit: Type.Optional(Limit(100, DEFAULT_LIMIT)),
  }),
  output: Output({
    items: Type.Array(SuppressionSchema),
    next_cursor: NextCursor,
    dead_address: Nullable(Output({ value: Type.String(), since: Nullable(IsoDate) })),
    notice: Notice,
  }),
  permission: ['read'],
  verifiedRequired: false,
  effect: 'read-only',
  async handler({ rt, access }, input) {
    const query = input.query?.trim().toLowerCase() || null;
    const scope = `${access.space.id}|list_suppressions|${query ?? ''}`;
    const before = input.cursor ? decodeCursor(input.cursor, scope) : null;
    const address = query && suppressionValue(query)?.kind === 'address' ? query : null;
    const [page, dead] = await Promise.all([
      listSuppressions(rt, access.space.id, query, before, input.limit ?? DEFAULT_LIMIT),
      address ? deadAddress(rt, address) : null,
    ]);
    return {
      items: page.items.map((entry) => ({ ...entry, note: entry.note ?? null })),
      next_cursor: page.next ? encodeCursor(scope, page.next) : null,
      dead_address: address && dead ? { value: address, since: since(dead) } : null,
    };
  },
  notice: (out) =>
    sentences(
      out.dead_address && `N'écrivez pas à ${out.dead_address.value} : aucun envoi ne peut plus lui parvenir.`,
      nextPage('list_suppressions', out.next_cursor),
    ),
  text: (out, input) =>
    lines(
      `${countOf(out.items.length, 'blocage', 'blocages', 'Aucun blocage')}${input.query ? ` pour ${JSON.stringify(input.query)}` : ''} sur cette page, le plus récent d'abord${out.items.length ? ' :' : '.'}`,
      items(out.items, (e) => [suppressionLine(e)]),
      out.dead_address &&
        `${out.dead_address.value} est une adresse morte pour toute la plateforme (rebond définitif${out.dead_address.since ? ` le ${parisStamp(out.dead_address.since)}` : ''}).`,
      pageEnd(out.next_cursor),
    ),
});
