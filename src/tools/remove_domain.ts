import { Type } from '@sinclair/typebox';
import { removeDomain } from '../../actors/domain.js';
import { normaliseDomain } from '../domains/names.js';
import { quote } from '../texts.js';
import { defineTool } from './registry.js';
import { Confirm, DomainName, Input, Notice, Output } from './schemas.js';

export default defineTool({
  name: 'remove_domain',
  description:
    "Retire un domaine de l'espace, sans retour : plus aucune boîte ne peut y être créée et le serveur de courrier cesse de recevoir " +
    "pour lui. Refusé tant qu'une boîte de l'espace y vit (supprimez-la d'abord avec delete_inbox). L'enregistrer à nouveau donne de " +
    'nouvelles clés DKIM et une nouvelle preuve de propriété.',
  input: Input({ domain: DomainName, confirm: Confirm }),
  output: Output({
    remote_domain_removed: Type.Boolean({
      description: "retiré du serveur de courrier (faux s'il n'y était jamais arrivé : propriété jamais prouvée)",
    }),
    removed: Type.String({ description: 'le domaine retiré' }),
    notice: Notice,
  }),
  permission: ['manage_inboxes'],
  verifiedRequired: true,
  effect: 'write, irreversible',
  async handler({ rt, access }, input) {
    const domain = normaliseDomain(input.domain);
    const { remote_domain_removed } = await removeDomain(rt, access, domain);
    return { remote_domain_removed, removed: domain };
  },
  hints: { idempotent: true },
  notice: () =>
    'Pour le réutiliser, enregistrez-le à nouveau avec add_domain : de nouveaux enregistrements DNS seront à publier.',
  text: (out) =>
    `Domaine ${quote(out.removed)} retiré${out.remote_domain_removed ? ' ; le serveur de courrier ne reçoit plus pour lui' : ''}.`,
});
