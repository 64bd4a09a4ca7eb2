/** Schema pieces shared by several tools. Input objects refuse unknown parameters; outputs are exact. */
import { Type } from '@sinclair/typebox';
import { Exact, Nullable } from '../records.js';

/** The record schemas (src/records.ts), for the tools that answer them. */
export {
  AudienceSchema, CampaignSchema, CampaignStatusSchema, ContactFieldsSchema, ContactSchema, DomainSchema, FilterCountsSchema, FilterSchema, FollowUpSchema, Id, InboxSchema, IsoDate, KeySchema, MessageSchema, Nullable, PermissionSchema, SuppressionSchema, ThreadSchema,
} from '../records.js';

export const Input = Exact;
export const Output = Exact;

export const Limit = (max: number, fallback: number) =>
  Type.Integer({ minimum: 1, maximum: max, description: `1 à ${max}, ${fallback} par défaut` });

export const Cursor = Type.String({ minLength: 1, maxLength: 512, description: 'next_cursor de l\'appel précédent' });
/** Every page's answer: the cursor of the next page, null on the last one. */
export const NextCursor = Nullable(Type.String());

export const Confirm = Type.Literal(true, { description: 'doit valoir true : action irréversible' });

/** A domain name given by the caller (normalised and checked by src/domains/names.ts). */
export const DomainName = Type.String({ minLength: 1, maxLength: 253, description: 'nom de domaine, par exemple envoi.exemple.fr' });

/** Bodies: a text part of at most 512 KB and an HTML part of at most 1 MB (the request itself is capped too). */
export const TEXT_MAX_CHARS = 512 * 1024;
export const HTML_MAX_CHARS = 1024 * 1024;

