import { Type } from '@sinclair/typebox';
import { BREAKER, breakerFigures } from '../../actors/breaker.js';
import { readFilters } from '../../actors/filter.js';
import { visibleInbox } from '../../actors/inbox.js';
import { filterCounts, ofInbox } from '../mail/filters.js';
import { liveInboxView } from '../../actors/stored-records.js';
import { filterCountsText, percent, plural } from '../texts.js';
import { lines } from '../texts/lists.js';
import { inboxLines } from '../texts/space.js';
import { defineTool } from './registry.js';
import { FilterCountsSchema, Id, InboxSchema, Input, Notice, Output } from './schemas.js';

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
    notice: Notice,
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
  notice: (out) =>
    out.inbox.status === 'suspended' && out.inbox.suspension?.review !== 'requested'
      ? `Corrigez la cause puis demandez la reprise avec request_inbox_review (inbox_id ${out.inbox.id}).`
      : null,
  text: (out) => {
    const { counts, circuit_breaker: cb } = out;
    return lines(
      inboxLines(out.inbox),
      `Sur ${cb.window_days} jours : ${plural(counts.sent_7d, 'envoi', 'envois')}, ${plural(counts.bounced_7d, 'rebond définitif', 'rebonds définitifs')}, ` +
        `${plural(counts.complaints_7d, 'plainte', 'plaintes')}.`,
      `Disjoncteur : rebonds ${percent(cb.bounce_rate)} (seuil ${percent(cb.bounce_rate_limit)}), plaintes ${percent(cb.complaint_rate)} ` +
        `(seuil ${percent(cb.complaint_rate_limit)}, ou ${cb.complaint_count_limit} plaintes) ; il juge à partir de ${cb.min_sent} envois.`,
      filterCountsText(out.filters).trim() || "Aucun filtre ne s'applique à cette boîte.",
    );
  },
});
