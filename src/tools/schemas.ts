/** Schema pieces shared by several tools. Input objects refuse unknown parameters; outputs are exact. */
import { Type, type TSchema } from '@sinclair/typebox';
import { idPattern, type IdKind, ID_PREFIXES } from '../ids.js';
import { PERMISSIONS } from '../../actors/space.js';

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const Id = (kind: IdKind, description?: string) =>
  Type.String({ pattern: idPattern(kind), description: description ?? `identifiant ${ID_PREFIXES[kind]}_...` });

export const Input = <P extends Parameters<typeof Type.Object>[0]>(properties: P) =>
  Type.Object(properties, { additionalProperties: false });

export const Output = Input;

export const IsoDate = Type.String({ description: 'date ISO 8601 (UTC)' });

export const PermissionSchema = Type.Union(PERMISSIONS.map((p) => Type.Literal(p)));


export const KeySchema = Output({
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
});

export const Limit = (max: number, fallback: number) =>
  Type.Integer({ minimum: 1, maximum: max, description: `1 à ${max}, ${fallback} par défaut` });

export const Cursor = Type.String({ minLength: 1, maxLength: 512, description: 'next_cursor de l\'appel précédent' });
/** Every page's answer: the cursor of the next page, null on the last one. */
export const NextCursor = Nullable(Type.String());

export const Confirm = Type.Literal(true, { description: 'doit valoir true : action irréversible' });

/** The inbox object (interface.md part 2), returned by create_inbox, list_inboxes, inbox_status... */
export const InboxSchema = Output({
  id: Id('inbox'),
  address: Type.String(),
  display_name: Type.String(),
  drafts: Type.Integer({ description: 'brouillons à valider' }),
  queued: Type.Integer({ description: 'messages en file' }),
  next_send_at: Nullable(IsoDate),
  quota: Output({
    daily_quota: Type.Integer({ description: "quota du jour (palier de montée en charge)" }),
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
    Output({
      review: Type.Union([Type.Literal('none'), Type.Literal('requested')]),
      requested_at: Nullable(IsoDate),
    }),
  ),
  warmup: Output({
    week: Type.Integer({ minimum: 1 }),
    step: Type.Integer({ description: 'quota quotidien du palier en cours' }),
    steps: Type.Array(Type.Integer()),
    finished: Type.Boolean(),
  }),
});

/** The domain object (interface.md part 2), returned by add_domain, verify_domain, list_domains. */
export const DomainSchema = Output({
  id: Id('domain'),
  domain: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('verified'), Type.Literal('suspended')]),
  status_reason: Nullable(Type.String()),
  verified_at: Nullable(IsoDate),
  last_checked_at: Nullable(IsoDate),
  records: Type.Array(
    Output({
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

/** A domain name given by the caller (normalised and checked by src/domains/names.ts). */
export const DomainName = Type.String({ minLength: 1, maxLength: 253, description: 'nom de domaine, par exemple envoi.exemple.fr' });

/** Bodies: a text part of at most 512 KB and an HTML part of at most 1 MB (the request itself is capped too). */
export const TEXT_MAX_CHARS = 512 * 1024;
export const HTML_MAX_CHARS = 1024 * 1024;

export const MessageSchema = Output({
  id: Id('message'),
  thread_id: Id('thread'),
  inbox_id: Id('inbox'),
  direction: Type.Union([Type.Literal('outbound'), Type.Literal('inbound')]),
  from: Type.String(),
  to: Type.String(),
  reply_to: Nullable(Type.String()),
  subject: Type.String(),
  text: Type.String(),
  has_html: Type.Boolean(),
  auto_reply: Type.Boolean(),
  status: Type.Union([
    Type.Literal('draft'), Type.Literal('queued'), Type.Literal('sending'), Type.Literal('sent'), Type.Literal('delivered'),
    Type.Literal('bounced'), Type.Literal('failed'), Type.Literal('rejected'), Type.Literal('cancelled'), Type.Literal('received'),
  ]),
  status_code: Nullable(Type.String()),
  revision: Type.String(),
  created_at: IsoDate,
  sent_at: Nullable(IsoDate),
  received_at: Nullable(IsoDate),
  metadata: Nullable(Type.Object({}, { additionalProperties: true })),
  truncated: Type.Optional(Type.Boolean()),
  reply_text: Type.Optional(Type.String()),
});

export const ThreadSchema = Output({
  id: Id('thread'),
  inbox_id: Id('inbox'),
  subject: Type.String(),
  contact: Nullable(Type.String()),
  contact_name: Nullable(Type.String()),
  labels: Type.Array(Type.String()),
  archived: Type.Boolean(),
  unread: Type.Boolean(),
  message_count: Type.Integer(),
  last_message_at: IsoDate,
  last_direction: Type.Union([Type.Literal('inbound'), Type.Literal('outbound')]),
  campaign_id: Nullable(Type.String()),
  created_at: IsoDate,
});

/** A suppression entry (interface.md part 2 leaves the types open; docs/tools.md fixes them). */
export const SuppressionSchema = Output({
  id: Id('suppression'),
  value: Type.String({ description: 'adresse en minuscules, ou @domaine' }),
  kind: Type.Union([Type.Literal('address'), Type.Literal('domain')]),
  reason: Type.Union(['unsubscribe', 'complaint', 'bounce', 'manual'].map((r) => Type.Literal(r))),
  scope: Type.Literal('space'),
  source: Type.String({ description: "message d'origine (msg_...) ou clé qui l'a ajouté (key_...)" }),
  created_at: IsoDate,
  note: Nullable(Type.String({ description: "motif donné à add_suppression, sinon null" })),
});
