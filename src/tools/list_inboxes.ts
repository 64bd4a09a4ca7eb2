import { Type } from '@sinclair/typebox';
import { listLiveInboxes } from '../../actors/inbox.js';
import { liveInboxView } from '../../actors/stored-records.js';
import { decodeCursor, encodeCursor } from '../cursor.js';
import { countOf, items, lines, nextPage, pageEnd } from '../texts/lists.js';
import { inboxLines } from '../texts/space.js';
import { defineTool } from './registry.js';
import { Cursor, InboxSchema, Input, Limit, NextCursor, Notice, Output } from './schemas.js';

const DEFAULT_LIMIT = 20;

export default defineTool({
  name: 'list_inboxes',
  description:
    "Liste les boîtes de l'espace (actives et suspendues ; pas les supprimées), la plus récente d'abord, avec quotas, file et " +
    'montée en charge. Une clé restreinte ne voit que ses boîtes.',
  input: Input({
    cursor: Type.Optional(Cursor),
    limit: Type.Optional(Limit(100, DEFAULT_LIMIT)),
  }),
  output: Output({
    items: Type.Array(InboxSchema),
    next_cursor: NextCursor,
    notice: Notice,
  }),
  permission: ['read'],
  verifiedRequired: false,
  effect: 'read-only',
  async handler({ rt, access }, input) {
    const scope = `${access.space.id}|list_inboxes`;
    const after = input.cursor ? decodeCursor(input.cursor, scope) : null;
    const limit = input.limit ?? DEFAULT_LIMIT;
    // Ids are time-ordered: newest first is descending id order, and a page starts below the last id seen.
    const inboxes = (await listLiveInboxes(rt, access)).filter((inbox) => after === null || inbox.id < after);
    const page = inboxes.slice(0, limit);
    return {
      items: await Promise.all(page.map((inbox) => liveInboxView(rt, access.space.plan, access.space.id, inbox))),
      next_cursor: inboxes.length > limit ? encodeCursor(scope, page[page.length - 1]!.id) : null,
    };
  },
  notice: (out) => nextPage('list_inboxes', out.next_cursor),
  text: (out) =>
    lines(
      `${countOf(out.items.length, 'boîte', 'boîtes', 'Aucune boîte')} sur cette page, la plus récente d'abord${out.items.length ? ' :' : '.'}`,
      items(out.items, inboxLines),
      pageEnd(out.next_cursor),
    ),
});
