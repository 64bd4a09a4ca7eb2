import { Type } from '@sinclair/typebox';
import { listContacts } from '../../actors/audience.js';
import { decodeCursor, encodeCursor } from '../cursor.js';
import { contactLine } from '../texts/campaigns.js';
import { countOf, items, lines, nextPage, pageEnd } from '../texts/lists.js';
import { defineTool } from './registry.js';
import { ContactSchema, Cursor, Id, Input, Limit, NextCursor, Notice, Output } from './schemas.js';

const DEFAULT_LIMIT = 50;

export default defineTool({
  name: 'list_contacts',
  description:
    "Liste les contacts d'une audience (dans leur ordre d'ajout) ou, sans audience_id, de tout l'espace (par adresse). " +
    "query garde ceux dont l'adresse ou le nom contient ce texte. La fiche complète d'un contact : get_contact.",
  input: Input({
    audience_id: Type.Optional(Id('audience')),
    query: Type.Optional(Type.String({ minLength: 1, maxLength: 254, description: "partie d'adresse ou de nom" })),
    cursor: Type.Optional(Cursor),
    limit: Type.Optional(Limit(200, DEFAULT_LIMIT)),
  }),
  output: Output({ items: Type.Array(ContactSchema), next_cursor: NextCursor, notice: Notice }),
  permission: ['read'],
  verifiedRequired: false,
  effect: 'read-only',
  async handler({ rt, access }, input) {
    const query = input.query?.trim().toLowerCase() || null;
    const scope = `${access.space.id}|list_contacts|${input.audience_id ?? ''}|${query ?? ''}`;
    const page = await listContacts(rt, access.space.id, {
      audienceId: input.audience_id ?? null,
      query,
      after: input.cursor ? decodeCursor(input.cursor, scope) : null,
      limit: input.limit ?? DEFAULT_LIMIT,
    });
    return { items: page.items, next_cursor: page.next ? encodeCursor(scope, page.next) : null };
  },
  notice: (out) => nextPage('list_contacts', out.next_cursor),
  text: (out, input) =>
    lines(
      `${countOf(out.items.length, 'contact', 'contacts', 'Aucun contact')} ${input.audience_id ? `de l'audience ${input.audience_id}, dans leur ordre d'ajout` : "de l'espace, par adresse"}` +
        `${input.query ? ` pour ${JSON.stringify(input.query)}` : ''} sur cette page${out.items.length ? ' :' : '.'}`,
      items(out.items, (c) => [contactLine(c)]),
      pageEnd(out.next_cursor),
    ),
});
