import { Type } from '@sinclair/typebox';
import { visibleInbox } from '../../actors/inbox.js';
import { searchThreads } from '../../actors/search.js';
import { threadView } from '../../actors/thread.js';
import { decodeCursor, encodeCursor } from '../cursor.js';
import { MailboxError } from '../errors.js';
import { queryTerms } from '../mail/words.js';
import { quoteLine } from '../texts.js';
import { countOf, items, lines, nextPage, pageEnd, sentences } from '../texts/lists.js';
import { outsideNotice, searchHitLines } from '../texts/mail.js';
import { defineTool } from './registry.js';
import { Cursor, Id, Input, Limit, NextCursor, Notice, Output, ThreadSchema } from './schemas.js';

const DEFAULT_LIMIT = 20;

export default defineTool({
  name: 'search_threads',
  description:
    "Cherche dans le courrier : les fils dont l'objet, le correspondant (adresse ou nom) ou le texte des messages contiennent tous les " +
    "mots de query (majuscules et accents indifférents ; le dernier mot peut n'être qu'un début de mot : « fact » trouve « facture »). " +
    "Le fil dont un message correspond le plus récemment vient d'abord, avec les identifiants de ses messages qui correspondent et un extrait. " +
    'Filtres : boîte, étiquette. Une clé restreinte ne cherche que dans ses boîtes. Lisez un fil avec get_thread.',
  input: Input({
    query: Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'les mots cherchés, 2 lettres ou chiffres au moins chacun',
    }),
    inbox_id: Type.Optional(Id('inbox')),
    label: Type.Optional(
      Type.String({ minLength: 1, maxLength: 40, description: 'une étiquette posée par classify_thread' }),
    ),
    cursor: Type.Optional(Cursor),
    limit: Type.Optional(Limit(50, DEFAULT_LIMIT)),
  }),
  output: Output({
    items: Type.Array(
      Type.Object(
        {
          thread: ThreadSchema,
          message_ids: Type.Array(Type.String(), {
            description: 'les messages du fil qui correspondent, du plus récent au plus ancien (50 au plus)',
          }),
          snippet: Type.String({
            description: 'un passage du plus récent de ces messages, autour du premier mot trouvé',
          }),
        },
        { additionalProperties: false },
      ),
    ),
    next_cursor: NextCursor,
    notice: Notice,
  }),
  permission: ['read'],
  verifiedRequired: false,
  effect: 'read-only',
  async handler({ rt, access }, input) {
    const terms = queryTerms(input.query);
    if (!terms)
      throw new MailboxError(
        'invalid_argument',
        { parameter: 'query' },
        { reason: "aucun mot d'au moins deux lettres ou chiffres." },
      );
    if (input.inbox_id) await visibleInbox(rt, access, input.inbox_id, { live: false });
    const scope = `${access.space.id}|search_threads|${JSON.stringify([input.query, input.inbox_id ?? null, input.label ?? null])}`;
    const before = input.cursor ? Number(decodeCursor(input.cursor, scope)) : null;
    const page = await searchThreads(rt, access.space.id, {
      terms,
      inboxIds: input.inbox_id ? [input.inbox_id] : access.key.inbox_ids,
      label: input.label ?? null,
      before,
      limit: input.limit ?? DEFAULT_LIMIT,
    });
    return {
      items: page.hits.map((hit) => ({
        thread: threadView(hit.thread),
        message_ids: hit.message_ids,
        snippet: hit.snippet,
      })),
      next_cursor: page.next === null ? null : encodeCursor(scope, String(page.next)),
    };
  },
  // Snippets of received mail are a stranger's words.
  notice: (out) =>
    sentences(
      outsideNotice(out.items.length > 0),
      out.items.length > 0 && 'Lisez un fil avec get_thread (thread_id), un message avec get_message (message_id).',
      nextPage('search_threads', out.next_cursor),
    ),
  text: (out, input) =>
    lines(
      `${countOf(out.items.length, 'fil trouvé', 'fils trouvés', 'Aucun fil trouvé')} pour ${quoteLine(input.query)} sur cette page` +
        `${out.items.length ? ", le message correspondant le plus récent d'abord :" : '.'}`,
      items(out.items, searchHitLines),
      pageEnd(out.next_cursor),
    ),
});
