/** Schema pieces shared by several tools. Input objects refuse unknown parameters; outputs are exact. */
import { Type, type TObject, type TProperties } from '@sinclair/typebox';
import { Exact, Id, Nullable } from '../record-schemas.js';
import { PAGES, ROUTE_ARGUMENTS } from '../workspace/pages.js';

/** The record schemas (src/record-schemas.ts), for the tools that answer them. */
export {
  AttachmentSchema,
  AudienceSchema,
  CampaignSchema,
  CampaignStatusSchema,
  ContactFieldsSchema,
  ContactSchema,
  DomainSchema,
  FilterCountsSchema,
  FilterSchema,
  FollowUpSchema,
  Id,
  InboxSchema,
  IsoDate,
  KeySchema,
  MessageSchema,
  Nullable,
  PermissionSchema,
  SuppressionSchema,
  TextUnavailableSchema,
  ThreadSchema,
} from '../record-schemas.js';

export const Input = Exact;
export const Output = Exact;

export const Limit = (max: number, fallback: number) =>
  Type.Integer({ minimum: 1, maximum: max, description: `1 à ${max}, ${fallback} par défaut` });

export const Cursor = Type.String({ minLength: 1, maxLength: 512, description: "next_cursor de l'appel précédent" });
/** Every page's answer: the cursor of the next page, null on the last one. */
export const NextCursor = Nullable(Type.String());

/**
 * What an answer's French text tells beyond its fields (docs/tools.md, "What the model reads"), so that a host showing the
 * model only the structured answer loses nothing: the external-content warning, a departure estimate
 * in words, the next step. Written by the tool's notice() (src/tools/registry.ts).
 */
export const Notice = Nullable(
  Type.String({
    description:
      'ce que le texte dit de plus que les champs : avertissement de contenu extérieur, départ estimé en toutes lettres, prochaine étape ; null sinon',
  }),
);

/** A record answered as it is, with the answer's notice. */
export const withNotice = <P extends TProperties>(record: TObject<P>) =>
  Output({ ...record.properties, notice: Notice });

export const Confirm = Type.Literal(true, { description: 'doit valoir true : action irréversible' });

/** A domain name given by the caller (normalised and checked by src/domains/names.ts). */
export const DomainName = Type.String({
  minLength: 1,
  maxLength: 253,
  description: 'nom de domaine, par exemple envoi.exemple.fr',
});

/** Bodies: a text part of at most 512 KB and an HTML part of at most 1 MB (the request itself is capped too). */
export const TEXT_MAX_CHARS = 512 * 1024;
export const HTML_MAX_CHARS = 1024 * 1024;

/** An outgoing file (docs/contract.md, Decision 10): new bytes in base64, or a file received in the space, to forward it. */
export const AttachmentsInput = Type.Array(
  Type.Union([
    Exact({
      filename: Type.String({ minLength: 1, maxLength: 255, description: 'nom du fichier, sans chemin' }),
      content_type: Type.Optional(
        Type.String({
          minLength: 3,
          maxLength: 255,
          description: 'type MIME ; vérifié contre le contenu ; absent : déduit',
        }),
      ),
      content_base64: Type.String({ minLength: 1, description: 'contenu en base64' }),
    }),
    Exact({ attachment_id: Id('attachment', "pièce jointe reçue dans l'espace (att_...), pour la transférer") }),
  ]),
  {
    maxItems: 10,
    description: 'au plus 10 fichiers, 10 Mo décodés au total par défaut ; exécutables et scripts refusés',
  },
);

/** A workspace route (src/workspace/pages.ts): a page and its read arguments. */
export const WorkspacePage = Type.Union(
  PAGES.map((p) => Type.Literal(p)),
  { description: "page de l'espace de travail ; performances avec campaign_id : les résultats de cette campagne" },
);

const workspaceId = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 64, description }));

/** The arguments of src/workspace/pages.ts ROUTE_ARGUMENTS, described. */
export const WorkspaceArguments = Exact({
  query: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 254,
      description: 'fils : chercher dans le courrier ; contacts : chercher un contact',
    }),
  ),
  email: Type.Optional(Type.String({ minLength: 3, maxLength: 254, description: 'contacts : la fiche de ce contact' })),
  campaign_id: workspaceId('campagnes ou performances : cette campagne'),
  audience_id: workspaceId('audiences ou contacts : cette audience'),
  thread_id: workspaceId('fils : ce fil'),
  message_id: workspaceId('fils avec thread_id : ce message du fil'),
  inbox_id: workspaceId('fils : les fils de cette boîte'),
  label: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'fils : les fils de cette étiquette' })),
  archived: Type.Optional(Type.Boolean({ description: 'fils : les fils archivés' })),
  unread: Type.Optional(Type.Boolean({ description: 'fils : true, les non lus ; false, les lus' })),
  status: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 20,
      description:
        'campagnes ou performances : les campagnes dans cet état (draft, running, paused, finished, cancelled)',
    }),
  ),
} satisfies Record<keyof typeof ROUTE_ARGUMENTS, unknown>);

export const WorkspaceRoute = Exact({ page: WorkspacePage, arguments: WorkspaceArguments });

export const InstanceId = Type.String({
  minLength: 1,
  maxLength: 64,
  description: "identifiant de l'espace de travail ouvert (wsi_...), tiré de son contexte",
});

const navigationFields = {
  instance_id: InstanceId,
  sequence: Type.Integer({ description: 'séquence de cette commande' }),
  route: WorkspaceRoute,
};

/** navigate_workspace's receipt: the command, never the page's data. */
export const NavigationReceipt = Exact(navigationFields);

/** workspace_events' delivery: the latest command with its page read for the view. */
export const NavigationDelivery = Exact({
  ...navigationFields,
  result: Type.Record(Type.String(), Type.Unknown(), {
    description: 'par outil lu : sa réponse, ou {error: {code, message}}',
  }),
});
