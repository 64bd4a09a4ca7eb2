import { Type } from '@sinclair/typebox';
import { BREAKER, breakerFigures } from '../../actors/breaker.js';
import { readFilters } from '../../actors/filter.js';
import { visibleInbox } from '../../actors/inbox.js';
import { filterCounts, ofInbox } from '../mail/filters.js';
import { liveInboxView } from '../../actors/records.js';
import { filterCountsText, quote } from '../texts.js';
import { defineTool } from './registry.js';
import { FilterCountsSchema, Id, InboxSchema, Input, Output } from './schemas.js';


const percent = (rate: number): string => `${(rate * 100).toLocaleString('fr-FR', { maximumFractionDigits: 2 })} %`;

export default defineTool({
  name: 'inbox_status',
  description:
    "État d'une boîte : l'objet boîte (statut, quotas, montée en charge, suspension), ses compteurs sur 7 jours et les chiffres du " +
    'disjoncteur (taux de rebonds et de plaintes, seuils). Une boîte supprimée reste lisible, avec le statut deleted.',
  input: Input({ inbox_id: Id('inbox') }),
  output: Output({
    inbox: InboxSchema,
    counts: Output({
      sent_7d: Type.Integer({ description: 'messages partis sur 7 jours' }),
      bounced_7d: Type.Integer({ description: 'rebonds définitifs sur 7 jours' }),
      complaints_7d: Type.Integer({ description: 'plaintes sur 7 jours' }),
    }),
    circuit_breaker: Output({
      window_days: Type.Integer(),
      min_sent: Type.Integer({ description: 'envois minimum avant que le disjoncteur juge' }),
      bounce_rate: Type.Number(),
      complaint_rate: Type.Number(),
      bounce_rate_limit: Type.Number(),
      complaint_rate_limit: Type.Number(),
      complaint_count_limit: Type.Integer(),
    }),
    /** The filters that apply to the inbox (its own and the space's); list_filters details them. */
    filters: FilterCountsSchema,
  }),
  permission: ['read'],
  verifiedRequired: false,
  effect: 'read-only',
  async handler({ rt, access }, input) {
    const inbox = await visibleInbox(rt, access, input.inbox_id, { live: false });
    const [{ bounce_rate, complaint_rate, ...counts }, filters] = await Promise.all([
      breakerFigures(rt, access.space.id, inbox.id),
      readFilters(rt, access.space.id),
    ]);
    return {
      inbox: await liveInboxView(rt, access.space.plan, access.space.id, inbox),
      counts,
      circuit_breaker: { ...BREAKER, bounce_rate, complaint_rate },
      filters: filterCounts(ofInbox(filters, inbox.id)),
    };
  },
  text: (out) => {
    const { inbox, counts, circuit_breaker: cb } = out;
    const state =
      inbox.status === 'active' ? 'active' : inbox.status === 'deleted' ? 'supprimée' : `suspendue (${inbox.status_reason ?? 'sans raison donnée'})`;
    return (
      `Boîte ${quote(inbox.address)} ${state}. Aujourd'hui : ${inbox.quota.sent_today} envoyés sur ${inbox.quota.daily_quota} ` +
      `(semaine ${inbox.warmup.week} de montée en charge). Sur ${cb.window_days} jours : ${counts.sent_7d} envois, rebonds ` +
      `${percent(cb.bounce_rate)} (seuil ${percent(cb.bounce_rate_limit)}), plaintes ${percent(cb.complaint_rate)} (seuil ${percent(cb.complaint_rate_limit)}).` +
      filterCountsText(out.filters)
    );
  },
});
