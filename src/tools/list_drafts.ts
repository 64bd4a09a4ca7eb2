import { Type } from '@sinclair/typebox';
import { listDrafts } from '../../actors/draft.js';
import { messageView } from '../../actors/message.js';
import { decodeCursor, encodeCursor } from '../cursor.js';
import { plural, quote } from '../texts.js';
import { defineTool } from './registry.js';
import { Cursor, Id, Input, Limit, MessageSchema, NextCursor, Output, PermissionSchema } from './schemas.js';

const DEFAULT_LIMIT = 20;

export default defineTool({
  name: 'list_drafts',
  description:
    "Liste les brouillons qui attendent une validation humaine, le plus récent d'abord, avec leur texte complet et leur révision " +
    "(à donner à approve_message). key dit ce que la clé qui lit peut en faire : approve ouvre la validation, send ou approve " +
    "l'annulation. Une clé restreinte ne voit que les brouillons de ses boîtes.",
  input: Input({
    inbox_id: Type.Optional(Id('inbox')),
    cursor: Type.Optional(Cursor),
    limit: Type.Optional(Limit(100, DEFAULT_LIMIT)),
  }),
  output: Output({
    items: Type.Array(MessageSchema),
    key: Output({ name: Type.String(), permissions: Type.Array(PermissionSchema) }),
    next_cursor: NextCursor,
  }),
  permission: ['read', 'approve'],
  verifiedRequired: false,
  effect: 'read-only',
  async handler({ rt, access }, input) {
    const scope = `${access.space.id}|list_drafts|${input.inbox_id ?? '*'}`;
    const before = input.cursor ? decodeCursor(input.cursor, scope) : null;
    const page = await listDrafts(rt, access, input.inbox_id ?? null, before, input.limit ?? DEFAULT_LIMIT);
    return {
      items: page.items.map(messageView),
      key: { name: access.key.name, permissions: access.key.permissions },
      next_cursor: page.next ? encodeCursor(scope, page.next) : null,
    };
  },
  text: (out) =>
    `${plural(out.items.length, 'brouillon', 'brouillons')} à valider` +
    (out.items.length ? ' : ' + out.items.map((m) => `${m.id} ${quote(m.subject)} pour ${m.to} (révision ${m.revision})`).join(' ; ') : '') +
    (out.next_cursor ? '. Suite avec next_cursor.' : '.'),
});
