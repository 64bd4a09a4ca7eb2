import { Type } from '@sinclair/typebox';
import { journalCheckout } from '../../actors/space.js';
import { MailboxError } from '../errors.js';
import { defineTool } from './registry.js';
import { Input, Notice, Output } from './schemas.js';

export default defineTool({
  name: 'subscribe',
  description:
    "Souscrit une offre : rend l'adresse de la page de paiement (checkout_url) à donner à l'humain de l'espace. L'offre s'applique " +
    "une fois le paiement fait. Offres : celles du service (billing_status dit l'offre en cours). billing_unavailable quand le paiement " +
    "n'est pas en service sur ce serveur.",
  input: Input({
    plan: Type.String({ minLength: 1, maxLength: 60, description: "nom de l'offre, par exemple starter, pro, scale" }),
  }),
  output: Output({
    plan: Type.String(),
    checkout_url: Type.String({ description: "page de paiement, à ouvrir par l'humain" }),
    notice: Notice,
  }),
  permission: ['approve'],
  verifiedRequired: false,
  effect: 'write',
  async handler({ rt, access }, input) {
    const plan = rt.config.plans[input.plan];
    if (!plan) {
      throw new MailboxError(
        'invalid_argument',
        { parameter: 'plan' },
        { reason: `offres possibles : ${Object.keys(rt.config.plans).join(', ')}.` },
      );
    }
    const provider = rt.ports.billing();
    // A plan without a price id is not sold online: the operator sets it (set-plan).
    if (!provider || !plan.price_id) throw new MailboxError('billing_unavailable');
    const checkoutUrl = await provider.checkoutUrl(access.space.id, plan, access.space.human_email);
    await journalCheckout(rt, access, plan.name);
    return { plan: plan.name, checkout_url: checkoutUrl };
  },
  notice: () =>
    "Donnez cette adresse à l'humain de l'espace : l'offre s'applique une fois le paiement fait (billing_status le dit).",
  text: (out) => `Page de paiement de l'offre ${out.plan} : ${out.checkout_url}`,
});
