import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { contentHash, createOutbound, sendingFacts } from '../../actors/message.js';
import { attachmentNames, checkOutgoingFiles } from '../../actors/attachments.js';
import type { StoredThread } from '../../actors/records.js';
import { checkMetadata, checkPlaceholders, checkSecrets, oneLine, parseAddress, parseDate } from '../sending/validate.js';
import { parisMoment, quote } from '../texts.js';
import { defineTool, type ToolContext } from './registry.js';
import { AttachmentsInput, HTML_MAX_CHARS, Id, InboxSchema, Input, IsoDate, MessageSchema, Nullable, Output, TEXT_MAX_CHARS, ThreadSchema } from './schemas.js';

export const SendOutput = Output({
  status: Type.Union([Type.Literal('queued'), Type.Literal('draft')], { description: 'queued : part seul ; draft : attend un humain' }),
  estimated_send_at: Nullable(IsoDate),
  replayed: Type.Boolean({ description: "vrai quand la même clé d'idempotence et le même contenu ont rendu le message existant" }),
  dry_run: Type.Boolean(),
  message: Nullable(MessageSchema),
  thread: Nullable(ThreadSchema),
  inbox: InboxSchema,
});

export const sendText = (out: Static<typeof SendOutput>): string => {
  const when = out.estimated_send_at ? `départ estimé ${parisMoment(Date.parse(out.estimated_send_at))} (heure de Paris)` : '';
  if (out.replayed) return `Ce message existait déjà (même clé d'idempotence, même contenu) : rien de nouveau. ${out.message!.id} est ${out.message!.status}.`;
  const outcome = out.status === 'draft' ? "brouillon en attente de validation humaine (approve_message)" : `mis en file ; ${when}`;
  if (out.dry_run) return `Essai à blanc, rien n'a été écrit : le message serait ${outcome}.`;
  return `Message ${out.message!.id} ${outcome}, de ${quote(out.inbox.address)} à ${quote(out.message!.to)}.`;
};

/** The parameters of a message's body and sending, shared by send_email and reply_to_thread. */
export const BODY_PARAMETERS = {
  text: Type.String({ minLength: 1, maxLength: TEXT_MAX_CHARS, description: 'texte brut ; seul {{unsubscribe_url}} est permis entre doubles accolades' }),
  html: Type.Optional(Type.String({ maxLength: HTML_MAX_CHARS, description: 'version HTML, même contenu que text' })),
  metadata: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'données libres, au plus 8000 caractères, rendues telles quelles' })),
  requires_approval: Type.Optional(Type.Boolean()),
  send_after: Type.Optional(Type.String({ minLength: 10, maxLength: 40, description: 'pas avant cette date (ISO 8601, ou heure de Paris sans fuseau)' })),
  idempotency_key: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  dry_run: Type.Optional(Type.Boolean({ description: 'tout vérifier, ne rien écrire' })),
  attachments: Type.Optional(AttachmentsInput),
};

const BodyInput = Input(BODY_PARAMETERS);

/** Who a message goes to and from where, as each sending tool settles it from its own parameters. */
export interface Recipient {
  inboxId: string;
  thread: StoredThread | null;
  to: string;
  toName: string | null;
  subject: string;
  replyTo: string | null;
  test: boolean;
}

/**
 * The body's checks and the creation, once the tool has settled the recipient (and checked what the
 * caller wrote there). `input` is the whole input: every parameter but the idempotency key is content.
 */
export async function sendOutbound({ rt, access }: ToolContext, input: Static<typeof BodyInput> & Record<string, unknown>, recipient: Recipient) {
  checkMetadata(input.metadata);
  checkPlaceholders({ text: input.text, html: input.html });
  checkSecrets(access.space.id, {
    text: input.text, html: input.html, metadata: input.metadata ? JSON.stringify(input.metadata) : null,
    attachments: attachmentNames(input.attachments),
  });
  const sendAfter = input.send_after === undefined ? null : parseDate(input.send_after, 'send_after');
  const facts = await sendingFacts(rt, access, recipient.inboxId, recipient.to);
  const attachments = await checkOutgoingFiles(rt, access.space.id, access.key.inbox_ids, input.attachments ?? []);
  const dryRun = input.dry_run ?? false;
  const result = await createOutbound(rt, access, {
    inbox: facts.inbox,
    thread: recipient.thread,
    to: recipient.to,
    to_name: recipient.toName,
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
  }, facts);
  return { ...result, dry_run: dryRun };
}

export default defineTool({
  name: 'send_email',
  description:
    "Écrit un premier message à un destinataire depuis une boîte, dans un nouveau fil. Le message ne part pas tout de suite : il entre " +
    "dans la file et part dans la fenêtre d'envoi, sous le quota du jour (montée en charge) et espacé des autres ; ou il reste brouillon " +
    "si une validation humaine est demandée ou imposée. Un lien de désabonnement est toujours ajouté ({{unsubscribe_url}} le place vous-même). " +
    "Pour relancer quelqu'un à qui la boîte a déjà écrit, utilisez reply_to_thread. dry_run vérifie tout sans rien écrire. " +
    "Utilisez une idempotency_key pour chaque nouvel essai.",
  input: Input({
    inbox_id: Id('inbox'),
    to: Type.String({ minLength: 3, maxLength: 254, description: 'adresse du destinataire' }),
    to_name: Type.Optional(Type.String({ maxLength: 120 })),
    subject: Type.String({ minLength: 1, maxLength: 300, description: 'une ligne, au plus 300 caractères' }),
    reply_to: Type.Optional(Type.String({ minLength: 3, maxLength: 254 })),
    test: Type.Optional(Type.Boolean({ description: "envoi de test à soi seulement : l'humain de l'espace ou une autre boîte de l'espace" })),
    ...BODY_PARAMETERS,
  }),
  output: SendOutput,
  permission: ['send'],
  verifiedRequired: true,
  effect: 'write',
  async handler(ctx, input) {
    const to = parseAddress(input.to, 'to');
    const toName = input.to_name === undefined ? null : oneLine(input.to_name, 'to_name');
    const subject = oneLine(input.subject, 'subject');
    const replyTo = input.reply_to === undefined ? null : parseAddress(input.reply_to, 'reply_to');
    checkPlaceholders({ subject });
    checkSecrets(ctx.access.space.id, { to, to_name: toName, subject, reply_to: replyTo });
    return sendOutbound(ctx, input, { inboxId: input.inbox_id, thread: null, to, toName, subject, replyTo, test: input.test ?? false });
  },
  text: (out) => sendText(out),
});
