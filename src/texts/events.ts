/** The space's events (event_feed's envelopes) and journal lines (list_events) in French for the model. */
import { inline, parisStamp, quoteLine } from '../texts.js';
import type { ContentFrames } from './frame.js';
import { attachmentsLine } from './mail.js';
import type { AttachmentView } from '../record-schemas.js';

export interface EnvelopeView {
  id: string;
  type: string;
  occurred_at: string;
  subject: { person: { email: string; name: string | null } | null; refs: Record<string, string> };
  data: Record<string, unknown>;
}

/** The event types whose text is a stranger's: the received message's. */
const RECEIVED = new Set(['mail.message.received', 'mail.thread.replied']);

/** The members of `data` shown apart: the bodies (framed) and the files. */
const BODIES = ['reply_text', 'text'] as const;

/** A member of `data` as shown: a date in words, a text quoted on one line, anything else as JSON. */
const value = (v: unknown): string =>
  typeof v !== 'string'
    ? JSON.stringify(v)
    : /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(v)
      ? `le ${parisStamp(v)}`
      : quoteLine(v);

/**
 * An envelope: type (a code, verbatim: webhooks and docs/events.md name it so), date, person, refs,
 * then every member of its data, the files listed and the message's text framed.
 */
export function envelopeLines(e: EnvelopeView, frames: ContentFrames): string[] {
  const person = e.subject.person;
  const refs = Object.entries(e.subject.refs);
  const external = RECEIVED.has(e.type);
  const data = Object.entries(e.data).filter(
    ([name, v]) =>
      !(BODIES as readonly string[]).includes(name) && name !== 'attachments' && e.subject.refs[name] !== v,
  );
  const messageId = typeof e.data.message_id === 'string' ? e.data.message_id : null;
  const whole = messageId
    ? `lisez-le en entier avec get_message (message_id ${messageId})`
    : 'lisez-le en entier avec get_message';
  const text = typeof e.data.text === 'string' ? e.data.text : null;
  const reply = typeof e.data.reply_text === 'string' ? e.data.reply_text : null;
  return [
    `Événement ${e.id} ${e.type}, le ${parisStamp(e.occurred_at)}` +
      `${person ? ` ; personne : ${person.name ? `${quoteLine(person.name)} <${person.email}>` : person.email}` : ''}` +
      `${refs.length ? ` ; ${refs.map(([name, id]) => `${name} ${id}`).join(', ')}` : ''}.`,
    ...(data.length ? [`Données : ${data.map(([name, v]) => `${name} ${value(v)}`).join(' ; ')}.`] : []),
    ...(Array.isArray(e.data.attachments)
      ? [attachmentsLine(e.data.attachments as AttachmentView[]) ?? 'Aucune pièce jointe.']
      : []),
    ...(reply !== null && text !== null && reply.trim() !== text.trim() && reply.trim() !== ''
      ? frames.body({ label: `texte nouveau (reply_text) du message ${messageId}`, text: reply, external, whole })
      : []),
    ...(text === null
      ? []
      : text === ''
        ? ['(Texte vide.)']
        : frames.body({ label: `texte du message ${messageId}`, text, external, whole })),
  ];
}

export const receivedEvents = (events: readonly Pick<EnvelopeView, 'type'>[]): boolean =>
  events.some((e) => RECEIVED.has(e.type));

export interface JournalLineView {
  id: string;
  at: string;
  text: string;
  actor: { kind: 'agent' | 'human' | 'service'; name: string; you: boolean };
  [ref: string]: unknown;
}

const REF_WORDS: Record<string, string> = {
  inbox_id: 'boîte',
  thread_id: 'fil',
  message_id: 'message',
  campaign_id: 'campagne',
  audience_id: 'audience',
  contact: 'contact',
  domain: 'domaine',
};

const actorWords = (a: JournalLineView['actor']): string =>
  a.you
    ? 'par vous'
    : a.kind === 'service'
      ? 'par le service'
      : a.kind === 'human'
        ? `par l'humain de l'espace (${a.name})`
        : `par ${quoteLine(a.name)}`;

/** A journal line: when, what (its French text), who, on which objects, its id. */
export function journalLine(line: JournalLineView): string {
  const refs = Object.keys(REF_WORDS)
    .filter((name) => typeof line[name] === 'string')
    .map((name) => `${REF_WORDS[name]} ${line[name]}`);
  return `${parisStamp(line.at)} : ${inline(line.text)} — ${actorWords(line.actor)}${refs.length ? ` ; ${refs.join(', ')}` : ''} (${line.id}).`;
}

/** The journal kinds that quote a stranger's words (a received subject, a sender). */
export const OUTSIDE_KINDS = new Set(['message.received', 'thread.replied', 'message.filtered']);
