import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { contentHash, createOutbound, sendingFacts } from '../../actors/message.js';
import { attachmentNames, checkOutgoingFiles } from '../../actors/attachments.js';
import type { StoredThread } from '../../actors/stored-records.js';
import {
  checkMetadata,
  checkPlaceholders,
  checkSecrets,
  oneLine,
  parseAddress,
  parseDate,
  SUBJECT_MAX_CHARS,
} from '../sending/validate.js';
import { COPIES_MAX, distinctCopies, mainRecipient, recipientList, type Mailbox } from '../sending/recipients.js';
import { parisMoment, quote } from '../texts.js';
import type { ContentFrames } from '../texts/frame.js';
import { lines, sentences } from '../texts/lists.js';
import { draftNextStep, MESSAGE_STATUS_WORDS, messageLines, threadLines } from '../texts/mail.js';
import { inboxLines } from '../texts/space.js';
import { defineTool, type ToolContext } from './registry.js';
import {
  AttachmentsInput,
  HTML_MAX_CHARS,
  Id,
  InboxSchema,
  Input,
  IsoDate,
  MessageSchema,
  Notice,
  Nullable,
  Output,
  TEXT_MAX_CHARS,
  ThreadSchema,
} from './schemas.js';

export const SendOutput = Output({
  status: Type.Union([Type.Literal('queued'), Type.Literal('draft')], {
    description: 'queued : part seul ; draft : attend un humain',
  }),
  estimated_send_at: Nullable(IsoDate),
  replayed: Type.Boolean({
    description: "vrai quand la même clé d'idempotence et le même contenu ont rendu le message existant",
  }),
  dry_run: Type.Boolean(),
  message: Nullable(MessageSchema),
  thread: Nullable(ThreadSchema),
  inbox: InboxSchema,
  notice: Notice,
});

type SendAnswer = Omit<Static<typeof SendOutput>, 'notice'>;

/** When it leaves, in words: "départ estimé lundi 23 novembre à 9 h 12 (heure de Paris)". */
const departure = (out: SendAnswer): string =>
  out.estimated_send_at
    ? `départ estimé ${parisMoment(Date.parse(out.estimated_send_at))} (heure de Paris)`
    : 'départ dès que la file le permet';

/** send_email's and reply_to_thread's next step: when it leaves and what to do, or the approval it waits for. */
export function sendNotice(out: SendAnswer): string {
  if (out.dry_run) {
    return `Essai à blanc : rien n'a été écrit. Le message serait ${out.status === 'draft' ? 'gardé en brouillon, en attente de validation humaine' : `mis en file ; ${departure(out)}`}.`;
  }
  const m = out.message!;
  return sentences(
    out.replayed &&
      `Ce message existait déjà (même clé d'idempotence, même contenu) : rien de nouveau n'a été écrit ; il est ${MESSAGE_STATUS_WORDS[m.status]}.`,
    m.status === 'draft' && `Il attend la validation d'un humain. ${draftNextStep(m)}`,
    m.status === 'queued' &&
      `${departure(out).replace(/^d/, 'D')}. Suivez-le avec get_message (message_id ${m.id}) ; annulez-le avant son départ avec cancel_message si besoin.`,
  )!;
}

/** The answer of a send: what happened, the message (its text framed), its thread and the inbox's day. */
export const sendText = (out: Static<typeof SendOutput>, frames: ContentFrames): string =>
  out.dry_run
    ? lines(`Essai à blanc depuis la boîte ${out.inbox.id} ${quote(out.inbox.address)}.`, inboxLines(out.inbox))
    : lines(
        `Message ${out.message!.id} ${out.status === 'draft' ? 'gardé en brouillon, à valider' : 'mis en file'}${out.replayed ? ' (déjà écrit par un appel précédent)' : ''}.`,
        messageLines(out.message!, frames),
        threadLines(out.thread!),
        inboxLines(out.inbox),
      );

/** A list of copies as `cc` and `bcc` take it. */
const copiesInput = (description: string) =>
  Type.Optional(
    Type.Array(Type.String({ minLength: 3, maxLength: 400 }), {
      maxItems: COPIES_MAX,
      description: `${description} : « adresse » ou « Nom <adresse> », au plus ${COPIES_MAX}`,
    }),
  );

/** The parameters of a message's body and sending, shared by send_email and reply_to_thread. */
export const BODY_PARAMETERS = {
  cc: copiesInput('copies visibles (en-tête Cc) ; chaque adresse passe les mêmes règles que le destinataire'),
  bcc: copiesInput('copies cachées : jamais dans un en-tête ni montrées aux autres destinataires'),
  text: Type.String({
    minLength: 1,
    maxLength: TEXT_MAX_CHARS,
    description: 'texte brut ; seul {{unsubscribe_url}} est permis entre doubles accolades',
  }),
  html: Type.Optional(Type.String({ maxLength: HTML_MAX_CHARS, description: 'version HTML, même contenu que text' })),
  metadata: Type.Optional(
    Type.Object(
      {},
      { additionalProperties: true, description: 'données libres, au plus 8000 caractères, rendues telles quelles' },
    ),
  ),
  requires_approval: Type.Optional(Type.Boolean()),
  send_after: Type.Optional(
    Type.String({
      minLength: 10,
      maxLength: 40,
      description: 'pas avant cette date (ISO 8601, ou heure de Paris sans fuseau)',
    }),
  ),
  idempotency_key: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  dry_run: Type.Optional(Type.Boolean({ description: 'tout vérifier, ne rien écrire' })),
  attachments: Type.Optional(AttachmentsInput),
};

type BodyInput = Static<ReturnType<typeof Input<typeof BODY_PARAMETERS>>>;

/** Who a message goes to and from where, as each sending tool settles it from its own parameters. */
export interface Recipient {
  inboxId: string;
  thread: StoredThread | null;
  to: string;
  toName: string | null;
  /** The copies as the tool settled them (reply_all adds the people of the message answered). */
  cc: Mailbox[];
  bcc: Mailbox[];
  subject: string;
  replyTo: string | null;
  test: boolean;
}

/**
 * The body's checks and the creation, once the tool has settled the recipient (and checked what the
 * caller wrote there). `input` is the whole input: every parameter but the idempotency key is content.
 */
export async function sendOutbound(
  { rt, access }: ToolContext,
  input: BodyInput & Record<string, unknown>,
  recipient: Recipient,
) {
  checkMetadata(input.metadata);
  checkPlaceholders({ text: input.text, html: input.html });
  checkSecrets(access.space.id, {
    text: input.text,
    html: input.html,
    metadata: input.metadata ? JSON.stringify(input.metadata) : null,
    attachments: attachmentNames(input.attachments),
  });
  const sendAfter = input.send_after === undefined ? null : parseDate(input.send_after, 'send_after');
  const copies = distinctCopies({ address: recipient.to, name: recipient.toName }, recipient.cc, recipient.bcc);
  const written = (list: Mailbox[]) => list.map((m) => `${m.name ?? ''} ${m.address}`).join(' ');
  checkSecrets(access.space.id, { cc: written(copies.cc), bcc: written(copies.bcc) });
  const facts = await sendingFacts(rt, access, recipient.inboxId, [
    recipient.to,
    ...copies.cc.map((m) => m.address),
    ...copies.bcc.map((m) => m.address),
  ]);
  const attachments = await checkOutgoingFiles(rt, access.space.id, access.key.inbox_ids, input.attachments ?? []);
  const dryRun = input.dry_run ?? false;
  const result = await createOutbound(
    rt,
    access,
    {
      inbox: facts.inbox,
      thread: recipient.thread,
      to: recipient.to,
      to_name: recipient.toName,
      cc: copies.cc,
      bcc: copies.bcc,
      subject: recipient.subject,
      text: input.text,
      html: input.html || null,
      reply_to: recipient.replyTo,
      metadata: input.metadata ?? null,
      requires_approval: input.requires_approval ?? false,
      test: recipient.test,
      send_after: sendAfter,
      idempotency_key: input.idempotency_key ?? null,
      content_hash: input.idempotency_key === undefined ? '' : contentHash(input),
      dry_run: dryRun,
      attachments,
      campaign_id: null,
    },
    facts,
  );
  return { ...result, dry_run: dryRun };
}

export default defineTool({
  name: 'send_email',
  description:
    'Écrit un premier message à un destinataire depuis une boîte, dans un nouveau fil (to : « adresse » ou « Nom <adresse> » ; cc et bcc : ' +
    "jusqu'à 10 copies visibles et 10 cachées, chaque adresse soumise aux mêmes règles ; la règle des 30 jours ne vise que to). Le message ne part pas tout de suite : il entre " +
    "dans la file et part dans la fenêtre d'envoi, sous le quota du jour (montée en charge) et espacé des autres ; ou il reste brouillon " +
    'si une validation humaine est demandée ou imposée. Un lien de désabonnement est toujours ajouté ({{unsubscribe_url}} le place vous-même). ' +
    "Pour relancer quelqu'un à qui la boîte a déjà écrit, utilisez reply_to_thread. dry_run vérifie tout sans rien écrire. " +
    'Utilisez une idempotency_key pour chaque nouvel essai.',
  input: Input({
    inbox_id: Id('inbox'),
    to: Type.String({
      minLength: 3,
      maxLength: 400,
      description: 'destinataire : « adresse » ou « Nom <adresse> » (le nom remplit to_name)',
    }),
    to_name: Type.Optional(
      Type.String({ maxLength: 120, description: 'nom du destinataire ; donné aussi dans to, il doit être le même' }),
    ),
    subject: Type.String({
      minLength: 1,
      maxLength: SUBJECT_MAX_CHARS,
      description: `une ligne, au plus ${SUBJECT_MAX_CHARS} caractères`,
    }),
    reply_to: Type.Optional(Type.String({ minLength: 3, maxLength: 254 })),
    test: Type.Optional(
      Type.Boolean({
        description: "envoi de test à soi seulement : l'humain de l'espace ou une autre boîte de l'espace",
      }),
    ),
    ...BODY_PARAMETERS,
  }),
  output: SendOutput,
  permission: ['send'],
  verifiedRequired: true,
  effect: 'write',
  async handler(ctx, input) {
    const { address: to, name: toName } = mainRecipient(
      input.to,
      input.to_name === undefined ? null : oneLine(input.to_name, 'to_name'),
    );
    const cc = recipientList(input.cc, 'cc');
    const bcc = recipientList(input.bcc, 'bcc');
    const subject = oneLine(input.subject, 'subject');
    const replyTo = input.reply_to === undefined ? null : parseAddress(input.reply_to, 'reply_to');
    checkPlaceholders({ subject });
    checkSecrets(ctx.access.space.id, { to, to_name: toName, subject, reply_to: replyTo });
    return sendOutbound(ctx, input, {
      inboxId: input.inbox_id,
      thread: null,
      to,
      toName,
      cc,
      bcc,
      subject,
      replyTo,
      test: input.test ?? false,
    });
  },
  hints: { openWorld: true },
  notice: sendNotice,
  text: (out, _input, frames) => sendText(out, frames),
});
