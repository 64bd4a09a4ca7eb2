import { Type } from '@sinclair/typebox';
import { readBilling } from '../../actors/space.js';
import { planOf } from '../config.js';
import { iso } from '../clock.js';
import { defineTool } from './registry.js';
import { parisStamp, plural } from '../texts.js';
import { sentences } from '../texts/lists.js';
import { Input, IsoDate, Notice, Nullable, Output } from './schemas.js';

const STATUSES = ['none', 'active', 'past_due', 'cancelled'] as const;
type Status = (typeof STATUSES)[number];
const BILLING_STATUS_WORDS: Record<Status, string> = {
  none: 'sans abonnement',
  active: 'abonnement actif',
  past_due: 'paiement en retard',
  cancelled: 'abonnement terminé',
};

export default defineTool({
  name: 'billing_status',
  description:
    "État de l'abonnement : offre, statut (none, active, past_due, cancelled), fin de la période payée, plafond de boîtes de l'offre " +
    "et boîtes utilisées. Sans offre, l'espace reçoit, prépare des brouillons et n'écrit qu'à son humain ; souscrivez avec subscribe.",
  input: Input({}),
  output: Output({
    plan: Type.String({ description: 'none sans offre' }),
    status: Type.Union(STATUSES.map((s) => Type.Literal(s))),
    current_period_end: Nullable(IsoDate),
    inbox_cap: Type.Integer(),
    inboxes_used: Type.Integer(),
    notice: Notice,
  }),
  permission: ['read'],
  verifiedRequired: false,
  effect: 'read-only',
  async handler({ rt, access }) {
    const { status, periodEnd, inboxesUsed: used } = await readBilling(rt, access.space.id);
    const plan = access.space.plan;
    // A plan given at creation (--plan) has no billing record: it is in force. Without plan, a
    // subscription that ended says so.
    const known: Status | undefined = STATUSES.find((s) => s === status);
    return {
      plan,
      status: plan === 'none' ? (known === 'cancelled' ? 'cancelled' : 'none') : (known ?? 'active'),
      current_period_end: periodEnd ? iso(Number(periodEnd)) : null,
      inbox_cap: planOf(rt.config, plan).inbox_cap,
      inboxes_used: used,
    };
  },
  notice: (out) =>
    sentences(
      out.plan === 'none' &&
        "Sans offre, l'espace reçoit, prépare des brouillons et n'écrit qu'à son humain : souscrivez une offre avec subscribe.",
      out.status === 'past_due' &&
        "Le dernier paiement a échoué : l'offre reste active pendant les relances du prestataire ; faites régler l'humain de l'espace.",
    ),
  text: (out) =>
    `${out.plan === 'none' ? 'Aucune offre en cours' : `Offre ${out.plan}, ${BILLING_STATUS_WORDS[out.status]}`}` +
    `${out.current_period_end ? ` ; période payée jusqu'au ${parisStamp(out.current_period_end)}` : ''} ; ${plural(out.inboxes_used, 'boîte utilisée', 'boîtes utilisées')} sur ${out.inbox_cap}.`,
});
