import { Type } from '@sinclair/typebox';
import { domainView, listDomains } from '../../actors/domain.js';
import { countOf, items, lines } from '../texts/lists.js';
import { domainLines } from '../texts/space.js';
import { defineTool } from './registry.js';
import { DomainSchema, Input, Notice, Output } from './schemas.js';

export default defineTool({
  name: 'list_domains',
  description:
    "Liste les domaines de l'espace dans l'ordre d'enregistrement, avec leur statut, leurs enregistrements DNS et leur état au dernier " +
    'contrôle.',
  input: Input({}),
  output: Output({ domains: Type.Array(DomainSchema), notice: Notice }),
  permission: ['read'],
  verifiedRequired: false,
  effect: 'read-only',
  handler: async ({ rt, access }) => ({
    domains: (await listDomains(rt, access.space.id)).map((d) => domainView(rt, d)),
  }),
  notice: (out) =>
    out.domains.some((d) => d.status !== 'verified')
      ? 'Un domaine en attente ou suspendu attend ses enregistrements DNS : publiez-les, puis appelez verify_domain.'
      : null,
  text: (out) =>
    lines(
      `${countOf(out.domains.length, 'domaine', 'domaines', 'Aucun domaine')}, dans l'ordre d'enregistrement${out.domains.length ? ' :' : '.'}`,
      items(out.domains, domainLines),
    ),
});
