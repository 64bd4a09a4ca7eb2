import { Type } from '@sinclair/typebox';
import { createKey, DEFAULT_PERMISSIONS } from '../../actors/space.js';
import type { Permission } from '../record-schemas.js';
import { MailboxError } from '../errors.js';
import { carriesSecret } from '../secrets.js';
import { permissionList } from '../texts.js';
import { lines } from '../texts/lists.js';
import { keyLine } from '../texts/space.js';
import { defineTool } from './registry.js';
import { Id, Input, KeySchema, Notice, Output, PermissionSchema } from './schemas.js';

export default defineTool({
  name: 'create_key',
  description:
    "Crée la clé d'API d'un agent. Le secret est rendu une seule fois, dans cette réponse. Permissions par défaut : send et read ; " +
    "approve n'est jamais donnée par défaut (un agent ne valide pas ses propres envois). Une clé ne peut donner que les permissions " +
    'et les boîtes qu’elle a elle-même. Au plus 20 clés actives ; nom unique parmi elles.',
  input: Input({
    name: Type.String({
      minLength: 1,
      maxLength: 60,
      description: 'au plus 60 caractères, unique parmi les clés actives',
    }),
    permissions: Type.Optional(
      Type.Array(PermissionSchema, { minItems: 1, uniqueItems: true, description: 'absent : send et read' }),
    ),
    inbox_ids: Type.Optional(
      Type.Array(Id('inbox'), {
        minItems: 1,
        maxItems: 100,
        uniqueItems: true,
        description: 'les seules boîtes ouvertes à la clé ; absent : toutes',
      }),
    ),
    daily_cap: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 10000, description: 'messages créés par jour, 1 à 10000' }),
    ),
  }),
  output: Output({
    api_key: Type.String({ description: 'le secret, montré cette seule fois' }),
    key: KeySchema,
    mcp_url: Type.String(),
    notice: Notice,
  }),
  permission: ['approve'],
  verifiedRequired: true,
  effect: 'write',
  async handler({ rt, access }, input) {
    const name = input.name.trim();
    if (!name || /[\u0000-\u001f\u007f]/.test(name)) {
      throw new MailboxError(
        'invalid_argument',
        { parameter: 'name' },
        { reason: 'le nom doit être une ligne de texte non vide.' },
      );
    }
    if (carriesSecret(name, access.space.id)) throw new MailboxError('secret_in_message', { parameter: 'name' });
    const permissions: Permission[] = input.permissions ?? DEFAULT_PERMISSIONS;
    const missing = permissions.filter((p) => !access.key.permissions.includes(p));
    if (missing.length) {
      throw new MailboxError('forbidden', null, {
        reason: `Une clé ne peut donner que les permissions qu'elle a ; il lui manque : ${permissionList(missing)}.`,
      });
    }
    const own = access.key.inbox_ids;
    const inboxIds = input.inbox_ids ?? own;
    if (own && inboxIds!.some((id) => !own.includes(id))) {
      throw new MailboxError('forbidden', null, {
        reason: 'Une clé restreinte ne peut ouvrir que ses propres boîtes.',
      });
    }
    const created = await createKey(rt, access, {
      name,
      permissions,
      inbox_ids: inboxIds,
      daily_cap: input.daily_cap ?? null,
    });
    return { ...created, mcp_url: `${rt.config.baseUrl}/mcp` };
  },
  notice: () =>
    "Le secret (api_key) n'est montré qu'une fois : conservez-le maintenant. L'agent le présente en Authorization: Bearer à l'adresse MCP (mcp_url) ou à l'API HTTP.",
  text: (out) => lines('Clé créée.', keyLine(out.key), `Secret : ${out.api_key}`, `Adresse MCP : ${out.mcp_url}`),
});
