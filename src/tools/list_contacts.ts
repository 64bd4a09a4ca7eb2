import { Type } from '@sinclair/typebox';
import { listContacts } from '../../actors/audience.js';
import { decodeCursor, encodeCursor } from '../cursor.js';
import { plural } from '../texts.js';
import { defineTool } from './registry.js';
import { ContactSchema, Cursor, Id, Input, Limit, NextCursor, Output } from './schemas.js';

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
  output: Output({ items: Type.Array(ContactSchema), next_cursor: NextCursor }),
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
  text: (out) =>
    `${plural(out.items.length, 'contact', 'contacts')}` +
    (out.items.length ? ' : ' + out.items.map((c) => (c.name ? `${c.name} <${c.email}>` : c.email)).join(', ') : '') +
    (out.next_cursor ? '. Suite avec next_cursor.' : '.'),
});
