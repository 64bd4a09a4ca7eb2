import { Type } from '@sinclair/typebox';
import { readFeed, visibleTo } from '../../actors/events.js';
import { decodeCursor, encodeCursor } from '../cursor.js';
import { MailboxError } from '../errors.js';
import { envelopeLines, receivedEvents } from '../texts/events.js';
import { countOf, lines, sentences } from '../texts/lists.js';
import { outsideNotice } from '../texts/mail.js';
import { defineTool } from './registry.js';
import { Cursor, Id, Input, IsoDate, Limit, Notice, Nullable, Output } from './schemas.js';

const DEFAULT_LIMIT = 100;
/** A page stops before 4 MiB of envelopes: 500 message events of 256 KB would not fit in an answer. */
const PAGE_MAX_BYTES = 4 * 1024 * 1024;
/** Entries one call looks at for an inbox-restricted key before it answers a short page. */
const SCAN_CAP = 5000;
/** The position before any entry: what a reader of an empty stream is given to come back with. */
const START = '0-0';
const STREAM_ID = /^\d{1,16}-\d{1,16}$/;

const scopeOf = (spaceId: string): string => `${spaceId}|event_feed`;

/** The cursor event_feed and the realtime socket give to resume after `position` (null: from the start). */
export const feedCursor = (spaceId: string, position: string | null): string =>
  encodeCursor(scopeOf(spaceId), position ?? START);

/** The stream position a cursor of this space's feed names; `invalid_argument` on `parameter` otherwise. */
export function feedPosition(spaceId: string, cursor: string, parameter: string): string {
  const position = decodeCursor(cursor, scopeOf(spaceId), parameter);
  if (!STREAM_ID.test(position)) {
    throw new MailboxError(
      'invalid_argument',
      { parameter },
      { reason: "ce curseur ne vient pas d'un appel précédent d'event_feed." },
    );
  }
  return position;
}

const EnvelopeSchema = Output({
  id: Id('event'),
  type: Type.String({ description: 'mail.message.queued, mail.inbox.suspended… (docs/events.md)' }),
  occurred_at: IsoDate,
  account: Output({ space_id: Id('space') }),
  subject: Output({
    person: Nullable(Output({ email: Type.String(), name: Nullable(Type.String()) })),
    refs: Type.Record(Type.String(), Type.String(), {
      description: 'inbox_id, thread_id, message_id, campaign_id, domain_id selon le type',
    }),
  }),
  data: Type.Object(
    {},
    { additionalProperties: true, description: "selon le type ; contient les metadata de l'envoi" },
  ),
  v: Type.Literal(1),
});

export default defineTool({
  name: 'event_feed',
  description:
    "Relit les événements de l'espace par curseur, dans l'ordre d'émission : les mêmes que ses webhooks (même enveloppe, même id " +
    'evt_), gardés au moins trente jours. Sans after : depuis le plus ancien gardé ; ensuite, passez toujours le dernier ' +
    'next_cursor tel quel (il revient même quand rien de neuf, identique). Traitez chaque id une seule fois. Une clé restreinte ' +
    'à des boîtes ne voit que leurs événements.',
  input: Input({
    after: Type.Optional({
      ...Cursor,
      description: "next_cursor de l'appel précédent, tel quel ; absent : depuis le plus ancien événement gardé",
    }),
    limit: Type.Optional(Limit(500, DEFAULT_LIMIT)),
  }),
  output: Output({
    events: Type.Array(EnvelopeSchema),
    next_cursor: Type.String({
      description: "toujours présent ; identique quand rien n'est nouveau ; à passer en after",
    }),
    notice: Notice,
  }),
  permission: ['read'],
  verifiedRequired: false,
  effect: 'read-only',
  async handler({ rt, access }, input) {
    const after = input.after === undefined ? null : feedPosition(access.space.id, input.after, 'after');
    const { events, position } = await readFeed(rt, access.space.id, {
      after,
      limit: input.limit ?? DEFAULT_LIMIT,
      visible: visibleTo(access.key.inbox_ids),
      maxBytes: PAGE_MAX_BYTES,
      maxScanned: SCAN_CAP,
    });
    const next =
      position === null ? (input.after ?? feedCursor(access.space.id, null)) : feedCursor(access.space.id, position);
    return { events, next_cursor: next };
  },
  notice: (out) =>
    sentences(
      outsideNotice(receivedEvents(out.events)),
      out.events.length ? 'Traitez chaque id une seule fois.' : 'Rien de nouveau.',
      "Rappelez event_feed avec after = next_cursor, tel quel (il revient identique quand rien n'est nouveau).",
    ),
  text: (out, _input, frames) =>
    lines(
      `${countOf(out.events.length, 'événement', 'événements', 'Aucun événement')} sur cette page, dans l'ordre d'émission${out.events.length ? ' :' : '.'}`,
      out.events.flatMap((e) => ['', ...envelopeLines(e, frames)]),
      out.events.length ? '' : null,
      `next_cursor : ${JSON.stringify(out.next_cursor)}`,
    ),
});
