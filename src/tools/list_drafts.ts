import { Type } from '@sinclair/typebox';
import { listDrafts } from '../../actors/draft.js';
import { messageViews } from '../../actors/message.js';
import { decodeCursor, encodeCursor } from '../cursor.js';
import { permissionList, quoteLine } from '../texts.js';
import { countOf, lines, nextPage, pageEnd, sentences } from '../texts/lists.js';
import { messageLines } from '../texts/mail.js';
import { defineTool } from './registry.js';
import { Cursor, Id, Input, Limit, MessageSchema, NextCursor, Notice, Output, PermissionSchema } from './schemas.js';

const DEFAULT_LIMIT = 20;

export default defineTool({
  name: 'list_drafts',
  description:
    "Liste les brouillons qui attendent une validation humaine, le plus récent d'abord, avec leur texte complet et leur révision " +
    '(à donner à approve_message). key dit ce que la clé qui lit peut en faire : approve ouvre la validation, send ou approve ' +
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
    notice: Notice,
  }),
  permission: ['read', 'approve'],
  verifiedRequired: false,
  effect: 'read-only',
  async handler({ rt, access }, input) {
    const scope = `${access.space.id}|list_drafts|${input.inbox_id ?? '*'}`;
    const before = input.cursor ? decodeCursor(input.cursor, scope) : null;
    const page = await listDrafts(rt, access, input.inbox_id ?? null, before, input.limit ?? DEFAULT_LIMIT);
    return {
      items: await messageViews(rt, access.space.id, page.items),
      key: { name: access.key.name, permissions: access.key.permissions },
      next_cursor: page.next ? encodeCursor(scope, page.next) : null,
    };
  },
  notice: (out) => {
    const approves = out.key.permissions.includes('approve');
    const cancels = approves || out.key.permissions.includes('send');
    return sentences(
      out.items.length > 0 &&
        (approves
          ? 'Validez un brouillon avec approve_message (message_id et sa revision), corrigez-le avec update_draft, annulez-le avec cancel_message.'
          : `Cette clé ne valide pas (permission approve) : l'humain de l'espace valide dans l'espace de travail${cancels ? ' ; elle peut corriger (update_draft) ou annuler (cancel_message)' : ''}.`),
      nextPage('list_drafts', out.next_cursor),
    );
  },
  text: (out, _input, frames) =>
    lines(
      `${countOf(out.items.length, 'brouillon', 'brouillons', 'Aucun brouillon')} à valider sur cette page, le plus récent d'abord` +
        ` (clé ${quoteLine(out.key.name)} : ${permissionList(out.key.permissions)})${out.items.length ? ' :' : '.'}`,
      out.items.flatMap((m) => ['', ...messageLines(m, frames)]),
      out.items.length ? '' : null,
      pageEnd(out.next_cursor),
    ),
});
