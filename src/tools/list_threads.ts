import { Type } from '@sinclair/typebox';
import { visibleInbox } from '../../actors/inbox.js';
import { listThreads, threadView } from '../../actors/thread.js';
import { decodeCursor, encodeCursor } from '../cursor.js';
import { countOf, items, lines, nextPage, pageEnd, sentences } from '../texts/lists.js';
import { outsideNotice, threadLines } from '../texts/mail.js';
import { defineTool } from './registry.js';
import { Cursor, Id, Input, Limit, NextCursor, Notice, Output, ThreadSchema } from './schemas.js';

const DEFAULT_LIMIT = 20;

export default defineTool({
  name: 'list_threads',
  description:
    "Liste les fils de conversation, l'activité la plus récente d'abord : objet, correspondant, étiquettes, non lus, dernier sens. " +
    "Sans archived, les fils archivés sont omis ; archived: true ne liste qu'eux. Filtres : boîte, étiquette, non lus, correspondant. " +
    'Une clé restreinte ne voit que les fils de ses boîtes. Lisez un fil avec get_thread.',
  input: Input({
    inbox_id: Type.Optional(Id('inbox')),
    label: Type.Optional(
      Type.String({ minLength: 1, maxLength: 40, description: 'une étiquette posée par classify_thread' }),
    ),
    archived: Type.Optional(
      Type.Boolean({ description: 'true : les fils archivés seulement ; absent ou false : les autres' }),
    ),
    unread: Type.Optional(Type.Boolean({ description: 'true : fils avec des messages reçus non lus ; false : sans' })),
    contact: Type.Optional(Type.String({ minLength: 3, maxLength: 254, description: 'adresse du correspondant' })),
    cursor: Type.Optional(Cursor),
    limit: Type.Optional(Limit(100, DEFAULT_LIMIT)),
  }),
  output: Output({
    items: Type.Array(ThreadSchema),
    next_cursor: NextCursor,
    notice: Notice,
  }),
  permission: ['read'],
  verifiedRequired: false,
  effect: 'read-only',
  async handler({ rt, access }, input) {
    if (input.inbox_id) await visibleInbox(rt, access, input.inbox_id, { live: false });
    const filter = {
      inbox_id: input.inbox_id ?? null,
      label: input.label ?? null,
      archived: input.archived ?? false,
      unread: input.unread ?? null,
      contact: input.contact?.trim().toLowerCase() ?? null,
    };
    const scope = `${access.space.id}|list_threads|${JSON.stringify(filter)}`;
    const after = input.cursor ? decodeCursor(input.cursor, scope) : null;
    const page = await listThreads(rt, access, filter, after, input.limit ?? DEFAULT_LIMIT);
    return { items: page.threads.map(threadView), next_cursor: page.next ? encodeCursor(scope, page.next) : null };
  },
  notice: (out) =>
    sentences(
      outsideNotice(out.items.length > 0),
      out.items.length > 0 && 'Lisez un fil avec get_thread (thread_id).',
      nextPage('list_threads', out.next_cursor),
    ),
  text: (out, input) =>
    lines(
      `${countOf(out.items.length, 'fil', 'fils', 'Aucun fil')}${input.archived ? ' archivé' + (out.items.length > 1 ? 's' : '') : ''} sur cette page, l'activité la plus récente d'abord${out.items.length ? ' :' : '.'}`,
      items(out.items, threadLines),
      pageEnd(out.next_cursor),
    ),
});
