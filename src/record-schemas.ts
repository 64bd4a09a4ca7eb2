/**
 * The records every front end shows (docs/contract.md, Part 2, docs/contract.md, Decisions 2 and 4): one TypeBox schema
 * each. Tools answer them (and OpenAPI and MCP describe them from the same values); the actors build
 * their views as the schemas' static types, so a record's shape is written once. A leaf of the core.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { idPattern, type IdKind, ID_PREFIXES } from './ids.js';

export const PERMISSIONS = ['send', 'read', 'approve', 'manage_inboxes'] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const Id = (kind: IdKind, description?: string) =>
  Type.String({ pattern: idPattern(kind), description: description ?? `identifiant ${ID_PREFIXES[kind]}_...` });

/** An object with exactly these properties (inputs refuse unknown parameters; outputs are exact). */
export const Exact = <P extends Parameters<typeof Type.Object>[0]>(properties: P) =>
  Type.Object(properties, { additionalProperties: false });

export const IsoDate = Type.String({ description: 'date ISO 8601 (UTC)' });

export const PermissionSchema = Type.Union(PERMISSIONS.map((p) => Type.Literal(p)));

export const KeySchema = Exact({
  id: Id('key'),
  kind: Type.Union([Type.Literal('key'), Type.Literal('connection')]),
  name: Type.String(),
  permissions: Type.Array(PermissionSchema),
  inbox_ids: Nullable(Type.Array(Id('inbox'))),
  daily_cap: Nullable(Type.Integer()),
  created_at: IsoDate,
  last_used_at: Nullable(IsoDate),
  created_by: Nullable(Type.String()),
  prefix: Type.String({ description: 'les 12 premiers caractères du secret' }),
  client_id: Type.Optional(Type.String({ description: "connexion : l'identifiant du client OAuth" })),
  redirect_host: Type.Optional(Type.String({ description: "connexion : l'hôte où le client reçoit l'autorisation" })),
});

/** The inbox object (docs/contract.md, Part 2), returned by create_inbox, list_inboxes, inbox_status... */
export const InboxSchema = Exact({
  id: Id('inbox'),
  address: Type.String(),
  display_name: Type.String(),
  drafts: Type.Integer({ description: 'brouillons à valider' }),
  queued: Type.Integer({ description: 'messages en file' }),
  next_send_at: Nullable(IsoDate),
  quota: Exact({
    daily_quota: Type.Integer({ description: 'quota du jour (palier de montée en charge)' }),
    daily_max: Type.Integer({ description: "quota maximal de l'offre" }),
    sent_today: Type.Integer(),
    remaining_today: Type.Integer(),
  }),
  send_window: Type.String({ description: "fenêtre d'envoi en toutes lettres" }),
  shared: Type.Boolean({ description: 'boîte du domaine commun' }),
  status: Type.Union([Type.Literal('active'), Type.Literal('suspended'), Type.Literal('deleted')]),
  status_changed_at: Nullable(IsoDate),
  status_reason: Nullable(Type.String()),
  suspension: Nullable(
    Exact({
      review: Type.Union([Type.Literal('none'), Type.Literal('requested')]),
      requested_at: Nullable(IsoDate),
    }),
  ),
  warmup: Exact({
    week: Type.Integer({ minimum: 1 }),
    step: Type.Integer({ description: 'quota quotidien du palier en cours' }),
    steps: Type.Array(Type.Integer()),
    finished: Type.Boolean(),
  }),
});

/** The domain object (docs/contract.md, Part 2), returned by add_domain, verify_domain, list_domains. */
export const DomainSchema = Exact({
  id: Id('domain'),
  domain: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('verified'), Type.Literal('suspended')]),
  status_reason: Nullable(Type.String()),
  verified_at: Nullable(IsoDate),
  last_checked_at: Nullable(IsoDate),
  records: Type.Array(
    Exact({
      label: Type.String(),
      name: Type.String({ description: 'nom DNS complet' }),
      note: Type.String(),
      required: Type.Boolean(),
      role: Type.Union(['ownership', 'dkim', 'spf', 'mx', 'dmarc'].map((r) => Type.Literal(r))),
      seen: Nullable(Type.String({ description: 'valeur vue au dernier contrôle' })),
      state: Type.Union([Type.Literal('found'), Type.Literal('absent'), Type.Literal('different')]),
      type: Type.Union([Type.Literal('TXT'), Type.Literal('MX')]),
      value: Type.String({ description: 'valeur à publier' }),
    }),
  ),
});

/** A file of a message (docs/contract.md, Decision 10); its bytes are in the blob store. */
export const AttachmentSchema = Exact({
  id: Id('attachment'),
  filename: Nullable(Type.String()),
  content_type: Type.String(),
  size: Type.Integer({ description: 'octets' }),
  inline: Type.Boolean({ description: 'partie affichée dans le corps (une image citée par cid:)' }),
  content_id: Nullable(Type.String()),
  sha256: Type.String({ description: 'empreinte SHA-256 du contenu, en hexadécimal' }),
});

/** Why the text of untrusted content could not be read (docs/operations.md, "Limits on untrusted content"). */
const TEXT_UNAVAILABLE = ['depth_limit', 'time_limit', 'memory_limit', 'unreadable'] as const;
export type TextUnavailable = (typeof TEXT_UNAVAILABLE)[number];
export const TextUnavailableSchema = Type.Union(
  TEXT_UNAVAILABLE.map((reason) => Type.Literal(reason)),
  {
    description:
      "pourquoi le texte n'a pas pu être lu : depth_limit (HTML trop imbriqué), time_limit (lecture trop longue), memory_limit (trop de mémoire), unreadable (illisible)",
  },
);

/** A recipient of a message as shown: its address and display name (src/sending/recipients.ts). */
const RecipientSchema = Type.Object(
  {
    address: Type.String(),
    name: Nullable(Type.String()),
  },
  { additionalProperties: false },
);

export const MessageSchema = Exact({
  id: Id('message'),
  thread_id: Id('thread'),
  inbox_id: Id('inbox'),
  direction: Type.Union([Type.Literal('outbound'), Type.Literal('inbound')]),
  from: Type.String(),
  to: Type.String(),
  cc: Type.Array(RecipientSchema, {
    description: "les copies visibles (en-tête Cc) ; d'un message reçu, son en-tête Cc",
  }),
  bcc: Type.Array(RecipientSchema, {
    description: "les copies cachées d'un message envoyé : montrées à l'espace seulement, jamais dans un en-tête",
  }),
  reply_to: Nullable(Type.String()),
  subject: Type.String(),
  text: Type.String(),
  text_unavailable: Type.Optional(TextUnavailableSchema),
  has_html: Type.Boolean(),
  auto_reply: Type.Boolean(),
  status: Type.Union([
    Type.Literal('draft'),
    Type.Literal('queued'),
    Type.Literal('sending'),
    Type.Literal('sent'),
    Type.Literal('delivered'),
    Type.Literal('bounced'),
    Type.Literal('failed'),
    Type.Literal('rejected'),
    Type.Literal('cancelled'),
    Type.Literal('received'),
  ]),
  status_code: Nullable(Type.String()),
  revision: Type.String(),
  created_at: IsoDate,
  sent_at: Nullable(IsoDate),
  received_at: Nullable(IsoDate),
  metadata: Nullable(Type.Object({}, { additionalProperties: true })),
  attachments: Type.Array(AttachmentSchema),
  in_reply_to_id: Nullable(
    Id(
      'message',
      "le message de l'espace auquel celui-ci répond (celui que nomme son en-tête In-Reply-To), sinon null",
    ),
  ),
  written_by: Nullable(
    Type.Object(
      {
        key_id: Type.String({ description: "l'accès qui l'a écrit (key_...), ou human : l'humain de l'espace" }),
        name: Nullable(Type.String({ description: "le nom de cet accès ; null s'il a été retiré depuis" })),
      },
      { additionalProperties: false, description: 'qui a écrit un message sortant ; null pour un message reçu' },
    ),
  ),
  campaign_id: Nullable(Type.String({ description: "la campagne qui l'a écrit (cmp_...), sinon null" })),
  truncated: Type.Optional(Type.Boolean()),
  reply_text: Type.Optional(Type.String()),
});

export const ThreadSchema = Exact({
  id: Id('thread'),
  inbox_id: Id('inbox'),
  subject: Type.String(),
  contact: Nullable(Type.String()),
  contact_name: Nullable(Type.String()),
  snippet: Type.String({
    description: 'le début du dernier message du fil, sans citation ni signature (100 caractères au plus)',
  }),
  labels: Type.Array(Type.String()),
  archived: Type.Boolean(),
  unread: Type.Boolean(),
  message_count: Type.Integer(),
  last_message_at: IsoDate,
  last_direction: Type.Union([Type.Literal('inbound'), Type.Literal('outbound')]),
  campaign_id: Nullable(Type.String()),
  created_at: IsoDate,
});

/** A suppression entry (docs/contract.md, Part 2 leaves the types open; docs/tools.md fixes them). */
export const SuppressionSchema = Exact({
  id: Id('suppression'),
  value: Type.String({ description: 'adresse en minuscules, ou @domaine' }),
  kind: Type.Union([Type.Literal('address'), Type.Literal('domain')]),
  reason: Type.Union(['unsubscribe', 'complaint', 'bounce', 'manual'].map((r) => Type.Literal(r))),
  scope: Type.Literal('space'),
  source: Type.String({ description: "message d'origine (msg_...) ou clé qui l'a ajouté (key_...)" }),
  created_at: IsoDate,
  note: Nullable(Type.String({ description: 'motif donné à add_suppression, sinon null' })),
});

/** A filter (docs/contract.md, Decision 14; rules in src/mail/filters.ts). */
export const FilterSchema = Exact({
  id: Id('filter'),
  inbox_id: Nullable(Id('inbox', "boîte du filtre ; null : tout l'espace")),
  direction: Type.Union([Type.Literal('receive'), Type.Literal('send')], {
    description: 'receive : courrier reçu ; send : envois',
  }),
  action: Type.Union([Type.Literal('allow'), Type.Literal('block')], {
    description: "block : refusé ; allow : dès qu'un allow existe, seuls les correspondants autorisés passent",
  }),
  value: Type.String({
    description: 'adresse, domaine (exemple.fr) ou domaine et sous-domaines (.exemple.fr), en minuscules et punycode',
  }),
  created_at: IsoDate,
  created_by: Type.Union([Id('key'), Type.Literal('human')], {
    description: "clé qui a ajouté le filtre, ou human : l'humain de l'espace dans l'espace de travail",
  }),
});

/** How many filters of each kind apply (inbox_status, get_settings; src/mail/filters.ts filterCounts). */
export const FilterCountsSchema = Exact({
  receive_allow: Type.Integer({
    description: "allow en réception : s'il y en a, seuls les expéditeurs authentifiés autorisés passent",
  }),
  receive_block: Type.Integer(),
  send_allow: Type.Integer({
    description: "allow en envoi : s'il y en a, seuls les destinataires autorisés sont permis",
  }),
  send_block: Type.Integer(),
});

/** An audience (docs/contract.md, Decision 11): a named list of the space's contacts. */
export const AudienceSchema = Exact({
  id: Id('audience'),
  name: Type.String(),
  contact_count: Type.Integer(),
  created_at: IsoDate,
});

/** A contact field's name: what `{{name}}` in a campaign reads (src/sending/placeholders.ts). */
export const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,39}$/;

/** A contact's free fields: names of FIELD_NAME, short texts; `{{field}}` in a campaign reads them. */
export const ContactFieldsSchema = Type.Record(Type.String(), Type.String({ maxLength: 500 }), {
  description: 'champs libres (au plus 20) : nom -> texte ; {{nom}} les place dans une campagne',
  maxProperties: 20,
});

/** A contact: an address of the space, with a name and free fields. */
export const ContactSchema = Exact({
  email: Type.String(),
  name: Nullable(Type.String()),
  fields: ContactFieldsSchema,
});

export const CampaignStatusSchema = Type.Union(
  ['draft', 'running', 'paused', 'finished', 'cancelled'].map((s) => Type.Literal(s)),
  {
    description:
      'draft : pas encore lancée ; running : en cours ; paused : en pause ; finished : terminée ; cancelled : annulée',
  },
);

/** A follow-up: a reply in the contact's thread, `after_days` Paris working days after the previous message. */
export const FollowUpSchema = Exact({
  after_days: Type.Integer({ minimum: 1, maximum: 30, description: 'jours ouvrés (Paris) après le message précédent' }),
  text: Type.String({ minLength: 1, maxLength: 512 * 1024, description: 'texte brut ; {{champ}} permis' }),
});

/** A campaign (docs/contract.md, Decisions 7 and 11). */
export const CampaignSchema = Exact({
  id: Id('campaign'),
  name: Type.String(),
  audience_id: Id('audience'),
  inbox_ids: Type.Array(Id('inbox')),
  subject: Type.String(),
  text: Type.String(),
  has_html: Type.Boolean(),
  follow_ups: Type.Array(FollowUpSchema),
  requires_approval: Type.Boolean(),
  send_after: Nullable(IsoDate),
  status: CampaignStatusSchema,
  created_at: IsoDate,
  started_at: Nullable(IsoDate),
  finished_at: Nullable(IsoDate),
});

export type KeyView = Static<typeof KeySchema>;
export type InboxView = Static<typeof InboxSchema>;
export type DomainView = Static<typeof DomainSchema>;
export type MessageView = Static<typeof MessageSchema>;
export type AttachmentView = Static<typeof AttachmentSchema>;
export type ThreadView = Static<typeof ThreadSchema>;
export type FilterView = Static<typeof FilterSchema>;
export type AudienceView = Static<typeof AudienceSchema>;
export type ContactView = Static<typeof ContactSchema>;
export type CampaignView = Static<typeof CampaignSchema>;
export type FollowUp = Static<typeof FollowUpSchema>;
