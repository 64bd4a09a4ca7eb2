import { Type } from '@sinclair/typebox';
import { MAX_FILTERS, readFilters, visibleFilters } from '../../actors/filter.js';
import { keySentOn } from '../../actors/space.js';
import { filterCounts } from '../mail/filters.js';
import { describeSendWindow } from '../sending/window.js';
import { filterCountsText, maskEmail, parisDay, permissionList, quote } from '../texts.js';
import { defineTool } from './registry.js';
import { FilterCountsSchema, Id, Input, Nullable, Output, PermissionSchema } from './schemas.js';

export default defineTool({
  name: 'get_settings',
  description:
    "Réglages en vigueur : l'espace (vérifié ou non, offre, validation imposée, fenêtre d'envoi, domaine commun), la clé qui appelle " +
    "(permissions, boîtes, plafond, envois du jour), les limites et l'adresse MCP.",
  input: Input({}),
  output: Output({
    space: Output({
      id: Id('space'),
      name: Type.String(),
      verified: Type.Boolean(),
      human_email: Nullable(Type.String({ description: 'adresse masquée' })),
      plan: Type.String(),
      approval_required: Type.Boolean({ description: "l'espace impose la validation humaine de chaque envoi" }),
      send_window: Type.String(),
      common_domain: Type.String(),
    }),
    key: Output({
      id: Type.Union([Id('key'), Type.Literal('human')], { description: "human : l'humain de l'espace connecté par code (pages du service)" }),
      name: Type.String(),
      kind: Type.Union([Type.Literal('key'), Type.Literal('connection')]),
      permissions: Type.Array(PermissionSchema),
      inbox_ids: Nullable(Type.Array(Id('inbox'))),
      daily_cap: Nullable(Type.Integer()),
      sent_today: Type.Integer(),
    }),
    limits: Output({
      active_keys: Type.Integer(),
      key_name_chars: Type.Integer(),
      daily_cap_max: Type.Integer(),
      keys_created_per_24h: Type.Integer(),
      webhooks_declared_per_24h: Type.Integer(),
      list_events_max: Type.Integer(),
    }),
    filters: Output({
      space_wide: FilterCountsSchema,
      total: Type.Integer({ description: "filtres de l'espace que cette clé voit (ceux de ses boîtes et ceux de tout l'espace)" }),
      max: Type.Integer({ description: "filtres au plus par espace" }),
    }),
    mcp_url: Type.String(),
  }),
  permission: 'any',
  verifiedRequired: false,
  effect: 'read-only',
  async handler({ rt, access }) {
    const { space, key } = access;
    const [sent, filters] = await Promise.all([keySentOn(rt, space.id, key.id, parisDay(rt.clock.now())), readFilters(rt, space.id)]);
    const seen = visibleFilters(access, filters);
    return {
      space: {
        id: space.id,
        name: space.name,
        verified: space.verified,
        human_email: maskEmail(space.human_email),
        plan: space.plan,
        approval_required: space.approval_required,
        send_window: describeSendWindow(rt.config.sendWindow),
        common_domain: rt.config.commonDomain,
      },
      key: {
        id: key.id,
        name: key.name,
        kind: key.kind,
        permissions: key.permissions,
        inbox_ids: key.inbox_ids,
        daily_cap: key.daily_cap,
        sent_today: sent,
      },
      limits: { ...rt.config.limits },
      filters: { space_wide: filterCounts(seen.filter((f) => f.inbox_id === null)), total: seen.length, max: MAX_FILTERS },
      mcp_url: `${rt.config.baseUrl}/mcp`,
    };
  },
  text: (out) =>
    `Espace ${quote(out.space.name)} (${out.space.verified ? 'vérifié' : 'non vérifié'}, ${out.space.plan === 'none' ? 'sans offre' : `offre ${out.space.plan}`}). ` +
    `Clé ${quote(out.key.name)} : ${permissionList(out.key.permissions)}. Envois ${out.space.send_window}.` +
    filterCountsText(out.filters.space_wide),
});
