import { Type } from '@sinclair/typebox';
import { DateTime } from 'luxon';
import { readJournal, refKey, type StoredLine } from '../../actors/journal.js';
import { decodeCursor, encodeCursor } from '../cursor.js';
import { MailboxError } from '../errors.js';
import { journalText, PARIS, parisDay } from '../texts.js';
import { journalLine, OUTSIDE_KINDS } from '../texts/events.js';
import { countOf, items, lines, nextPage, pageEnd, sentences } from '../texts/lists.js';
import { outsideNotice } from '../texts/mail.js';
import { defineTool } from './registry.js';
import { Cursor, Id, Input, IsoDate, Limit, NextCursor, Notice, Nullable, Output } from './schemas.js';

const OBJECT_FILTERS = [
  'inbox_id',
  'thread_id',
  'message_id',
  'campaign_id',
  'audience_id',
  'contact',
  'domain',
] as const;
const OBJECT_WORDS: Record<(typeof OBJECT_FILTERS)[number], string> = {
  inbox_id: 'de la boîte',
  thread_id: 'du fil',
  message_id: 'du message',
  campaign_id: 'de la campagne',
  audience_id: "de l'audience",
  contact: 'du contact',
  domain: 'du domaine',
};

const JournalLine = Output({
  id: Type.String(),
  at: IsoDate,
  kind: Type.String(),
  text: Type.String({ description: 'groupe nominal en français, sans sujet' }),
  actor: Output({
    kind: Type.Union([Type.Literal('agent'), Type.Literal('human'), Type.Literal('service')]),
    name: Type.String(),
    you: Type.Boolean({ description: "vrai quand la clé qui lit est l'auteur" }),
  }),
  inbox_id: Type.Optional(Id('inbox')),
  thread_id: Type.Optional(Id('thread')),
  message_id: Type.Optional(Id('message')),
  campaign_id: Type.Optional(Id('campaign')),
  audience_id: Type.Optional(Id('audience')),
  contact: Type.Optional(Type.String()),
  domain: Type.Optional(Type.String()),
});

const DEFAULT_LIMIT = 50;

function dayBounds(day: string): { from: number; to: number } {
  const start = DateTime.fromISO(day, { zone: PARIS });
  if (!start.isValid)
    throw new MailboxError('invalid_argument', { parameter: 'day' }, { reason: "ce jour n'existe pas au calendrier." });
  return { from: start.toMillis(), to: start.plus({ days: 1 }).toMillis() };
}

export default defineTool({
  name: 'list_events',
  description:
    "Lit le journal de l'espace : qui a fait quoi et quand, le plus récent d'abord. Sans objet : le jour demandé (aujourd'hui par " +
    'défaut, heure de Paris). Avec un objet (boîte, fil, message, campagne, audience, contact ou domaine) : toute son histoire.',
  input: Input({
    day: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'jour de Paris, AAAA-MM-JJ' })),
    inbox_id: Type.Optional(Id('inbox')),
    thread_id: Type.Optional(Id('thread')),
    message_id: Type.Optional(Id('message')),
    campaign_id: Type.Optional(Id('campaign')),
    audience_id: Type.Optional(Id('audience')),
    contact: Type.Optional(Type.String({ minLength: 3, maxLength: 254, description: 'une adresse' })),
    domain: Type.Optional(Type.String({ minLength: 1, maxLength: 253 })),
    cursor: Type.Optional(Cursor),
    limit: Type.Optional(Limit(200, DEFAULT_LIMIT)),
  }),
  output: Output({
    day: Nullable(Type.String()),
    events: Type.Array(JournalLine),
    next_cursor: NextCursor,
    notice: Notice,
  }),
  permission: ['read'],
  verifiedRequired: false,
  effect: 'read-only',
  async handler({ rt, access }, input) {
    const objects = OBJECT_FILTERS.filter((name) => input[name] !== undefined);
    if (objects.length > 1) {
      throw new MailboxError('invalid_argument', { parameter: objects[1]! }, { reason: 'un seul objet à la fois.' });
    }
    const object = objects[0];
    const ref = object ? refKey(input, object)! : '*';
    const day = input.day ?? (object ? null : parisDay(rt.clock.now()));
    const bounds = day ? dayBounds(day) : null;
    const scope = `${access.space.id}|list_events|${ref}|${day ?? ''}`;
    const own = access.key.inbox_ids;
    const { lines, next } = await readJournal(rt, access.space.id, {
      ref,
      from: bounds?.from ?? null,
      to: bounds?.to ?? null,
      before: input.cursor ? decodeCursor(input.cursor, scope) : null,
      limit: input.limit ?? DEFAULT_LIMIT,
      visible: (line: StoredLine) => !own || (line.refs.inbox_id !== undefined && own.includes(line.refs.inbox_id)),
    });
    return {
      day,
      events: lines.map((line) => ({
        id: line.id,
        at: line.at,
        kind: line.kind,
        text: journalText(line.kind, line.data),
        actor: { kind: line.actor.kind, name: line.actor.name, you: line.actor.key_id === access.key.id },
        ...line.refs,
      })),
      next_cursor: next ? encodeCursor(scope, next) : null,
    };
  },
  notice: (out) =>
    sentences(
      outsideNotice(out.events.some((e) => OUTSIDE_KINDS.has(e.kind))),
      nextPage('list_events', out.next_cursor),
    ),
  text: (out, input) => {
    const object = OBJECT_FILTERS.find((name) => input[name] !== undefined);
    const about = object
      ? ` ${OBJECT_WORDS[object]} ${input[object]}${out.day ? ` le ${out.day}` : ''}`
      : out.day
        ? ` du ${out.day} (jour de Paris)`
        : '';
    return lines(
      `${countOf(out.events.length, 'ligne', 'lignes', 'Aucune ligne')} du journal${about} sur cette page, la plus récente d'abord${out.events.length ? ' :' : '.'}`,
      items(out.events, (e) => [journalLine(e)]),
      pageEnd(out.next_cursor),
    );
  },
});
