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

export const Confirm = Type.Literal(true, { description: 'doit valoir true : action irréversible' });
