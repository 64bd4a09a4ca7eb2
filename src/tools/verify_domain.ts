import type { Static } from '@sinclair/typebox';
import { domainView, verifyDomain } from '../../actors/domain.js';
import { normaliseDomain } from '../domains/names.js';
import { quote } from '../texts.js';
import { defineTool } from './registry.js';
import { DomainName, DomainSchema, Input } from './schemas.js';

const STATE_WORDS = { found: 'trouvé', absent: 'absent', different: 'valeur différente' } as const;

/** The French telling of a domain object, shared by add_domain and verify_domain. */
export function domainText(domain: Static<typeof DomainSchema>): string {
  const head =
    domain.status === 'verified'
      ? `Domaine ${quote(domain.domain)} vérifié : des boîtes peuvent y être créées.`
      : domain.status === 'suspended'
        ? `Domaine ${quote(domain.domain)} suspendu (${domain.status_reason}) : ses boîtes n'envoient plus ; republiez les enregistrements puis appelez verify_domain.`
        : `Domaine ${quote(domain.domain)} en attente : publiez ces enregistrements puis appelez verify_domain.`;
  const records = domain.records.map(
    (r) =>
      `${r.label}${r.required ? '' : ' (facultatif)'} : ${r.type} ${r.name} = ${r.value}` +
      (domain.last_checked_at ? ` — ${STATE_WORDS[r.state]}${r.state === 'different' && r.seen ? ` (vu : ${r.seen})` : ''}` : ''),
  );
  return `${head} ${records.join(' ; ')}.`;
}

export default defineTool({
  name: 'verify_domain',
  description:
    "Interroge le DNS et rend l'état de chaque enregistrement du domaine (trouvé, absent, valeur différente avec la valeur vue). " +
    'Le domaine est vérifié quand la preuve de propriété, les deux clés DKIM, le SPF et le MX sont bons (DMARC non requis) ; le premier ' +
    "espace qui publie sa preuve obtient le domaine. Un changement DNS peut mettre quelques minutes à se voir. Les domaines vérifiés " +
    'sont contrôlés chaque jour, les suspendus chaque heure. Si la résolution DNS échoue, rien ne change.',
  input: Input({ domain: DomainName }),
  output: DomainSchema,
  permission: ['manage_inboxes'],
  verifiedRequired: true,
  effect: 'write',
  async handler({ rt, access }, input) {
    return domainView(rt, await verifyDomain(rt, access, normaliseDomain(input.domain)));
  },
  text: (out) => domainText(out),
});
