import { Type } from '@sinclair/typebox';
import { MAX_FILTERS, readFilters, visibleFilters } from '../../actors/filter.js';
import { scheduledClosure } from '../../actors/closure.js';
import { keySentOn } from '../../actors/space.js';
import { webhookState } from '../../actors/webhook.js';
import { filterCounts } from '../mail/filters.js';
import { describeSendWindow } from '../sending/window.js';
import { filterCountsText, maskEmail, parisDay, permissionList, quoteLine } from '../texts.js';
import { lines, sentences } from '../texts/lists.js';
import { defineTool } from './registry.js';
import { FilterCountsSchema, Id, Input, IsoDate, Notice, Nullable, Output, PermissionSchema } from './schemas.js';

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
      managed: Type.Boolean({
        description: 'ouvert par un administrateur : close_space ne le ferme pas (space_managed)',
      }),
      closes_at: Nullable({
        ...IsoDate,
        description: "fermeture confirmée (close_space) : l'espace est effacé à cette date ; sinon null",
      }),
    }),
    key: Output({
      id: Type.Union([Id('key'), Type.Literal('human')], {
        description: "human : l'humain de l'espace connecté par code (pages du service)",
      }),
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
      contacts_per_space: Type.Integer({ description: "contacts qu'un espace peut tenir" }),
    }),
    filters: Output({
      space_wide: FilterCountsSchema,
      total: Type.Integer({
        description: "filtres de l'espace que cette clé voit (ceux de ses boîtes et ceux de tout l'espace)",
      }),
      max: Type.Integer({ description: 'filtres au plus par espace' }),
    }),
    webhook: Nullable(
      Output({
        url: Type.String(),
        declared_at: IsoDate,
        failed_attempts: Type.Integer({
          description: "essais manqués de l'événement le plus ancien pas encore remis ; 0 : tout est remis",
        }),
        next_attempt_at: Nullable({ ...IsoDate, description: 'prochain essai, quand des essais ont manqué' }),
        last_error: Nullable(Type.String({ description: "l'erreur du dernier essai manqué, en français" })),
      }),
    ),
    mcp_url: Type.String(),
    notice: Notice,
  }),
  permission: 'any',
  verifiedRequired: false,
  effect: 'read-only',
  async handler({ rt, access }) {
    const { space, key } = access;
    const [sent, filters, webhook, closesAt] = await Promise.all([
      keySentOn(rt, space.id, key.id, parisDay(rt.clock.now())),
      readFilters(rt, space.id),
      webhookState(rt, space.id),
      scheduledClosure(rt, space.id),
    ]);
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
        managed: space.managed,
        closes_at: closesAt,
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
      filters: {
        space_wide: filterCounts(seen.filter((f) => f.inbox_id === null)),
        total: seen.length,
        max: MAX_FILTERS,
      },
      webhook,
      mcp_url: `${rt.config.baseUrl}/mcp`,
    };
  },
  notice: (out) =>
    sentences(
      !out.space.verified &&
        "L'espace n'est pas vérifié : rattachez son humain avec attach_human, puis appelez verify avec le code qu'il reçoit.",
      out.space.plan === 'none' &&
        "Sans offre, l'espace reçoit, prépare des brouillons et n'écrit qu'à son humain : souscrivez avec subscribe.",
    ),
  text: (out) => {
    const { space, key, limits } = out;
    return lines(
      `Espace ${space.id} ${quoteLine(space.name)} : ${space.verified ? 'vérifié' : 'non vérifié'} ; ${space.plan === 'none' ? 'sans offre' : `offre ${space.plan}`} ; ` +
        `humain ${space.human_email ?? 'non rattaché'} ; ${space.approval_required ? 'chaque envoi attend la validation humaine' : 'validation humaine à la demande'}.`,
      `Fenêtre d'envoi : ${space.send_window}. Domaine commun : ${space.common_domain}.`,
      `${key.kind === 'connection' ? 'Connexion' : 'Clé'} qui appelle : ${key.id} ${quoteLine(key.name)} ; ${permissionList(key.permissions)} ; ` +
        `${key.inbox_ids ? `boîtes ${key.inbox_ids.join(', ')}` : 'toutes les boîtes'} ; ${key.daily_cap === null ? 'sans plafond quotidien' : `au plus ${key.daily_cap} messages par jour`} ; ` +
        `${key.sent_today} créés aujourd'hui.`,
      `Limites : ${limits.active_keys} clés actives, noms de ${limits.key_name_chars} caractères au plus, plafond quotidien d'une clé ${limits.daily_cap_max}, ` +
        `${limits.keys_created_per_24h} clés créées et ${limits.webhooks_declared_per_24h} webhooks déclarés par 24 h, ${limits.list_events_max} lignes par page du journal.`,
      `Filtres visibles : ${out.filters.total} sur ${out.filters.max} au plus.${filterCountsText(out.filters.space_wide).replace(' Filtres :', " Pour tout l'espace :")}`,
      `Adresse MCP : ${out.mcp_url}`,
    );
  },
});
