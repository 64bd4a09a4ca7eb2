import { domainView, verifyDomain } from '../../actors/domain.js';
import { normaliseDomain } from '../domains/names.js';
import { lines } from '../texts/lists.js';
import { domainLines, domainNotice } from '../texts/space.js';
import { defineTool } from './registry.js';
import { DomainName, DomainSchema, Input, withNotice } from './schemas.js';

export default defineTool({
  name: 'verify_domain',
  description:
    "Interroge le DNS et rend l'état de chaque enregistrement du domaine (trouvé, absent, valeur différente avec la valeur vue). " +
    'Le domaine est vérifié quand la preuve de propriété, les deux clés DKIM, le SPF et le MX sont bons (DMARC non requis) ; le premier ' +
    'espace qui publie sa preuve obtient le domaine. Un changement DNS peut mettre quelques minutes à se voir. Les domaines vérifiés ' +
    'sont contrôlés chaque jour, les suspendus chaque heure. Si la résolution DNS échoue, rien ne change.',
  input: Input({ domain: DomainName }),
  output: withNotice(DomainSchema),
  permission: ['manage_inboxes'],
  verifiedRequired: true,
  effect: 'write',
  async handler({ rt, access }, input) {
    return domainView(rt, await verifyDomain(rt, access, normaliseDomain(input.domain)));
  },
  hints: { idempotent: true },
  notice: domainNotice,
  text: (out) => lines(domainLines(out)),
});
