import { addDomain, domainView } from '../../actors/domain.js';
import { normaliseDomain } from '../domains/names.js';
import { lines } from '../texts/lists.js';
import { domainLines, domainNotice } from '../texts/space.js';
import { defineTool } from './registry.js';
import { DomainName, DomainSchema, Input, withNotice } from './schemas.js';

export default defineTool({
  name: 'add_domain',
  description:
    "Enregistre un domaine de l'espace (un domaine à vous ou un sous-domaine, comme envoi.exemple.fr) et rend les enregistrements DNS " +
    'exacts à publier : preuve de propriété, deux clés DKIM, SPF, MX, et DMARC conseillé. Rien ne change tant que verify_domain ne les ' +
    'trouve pas. Refusé pour un domaine de messagerie publique (gmail.com...), un domaine du service, ou un domaine dont un autre ' +
    'espace a déjà prouvé la propriété. Cinq domaines par espace ; demande une offre.',
  input: Input({ domain: DomainName }),
  output: withNotice(DomainSchema),
  permission: ['manage_inboxes'],
  verifiedRequired: true,
  effect: 'write',
  async handler({ rt, access }, input) {
    return domainView(rt, await addDomain(rt, access, normaliseDomain(input.domain)));
  },
  notice: domainNotice,
  text: (out) => lines(domainLines(out)),
});
