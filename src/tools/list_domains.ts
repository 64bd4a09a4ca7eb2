import { Type } from '@sinclair/typebox';
import { domainView, listDomains } from '../../actors/domain.js';
import { plural, quote } from '../texts.js';
import { defineTool } from './registry.js';
import { DomainSchema, Input, Output } from './schemas.js';

const STATUS_WORDS = { pending: 'en attente', verified: 'vérifié', suspended: 'suspendu' } as const;

export default defineTool({
  name: 'list_domains',
  description:
    "Liste les domaines de l'espace dans l'ordre d'enregistrement, avec leur statut, leurs enregistrements DNS et leur état au dernier " +
    'contrôle.',
  input: Input({}),
  output: Output({ domains: Type.Array(DomainSchema) }),
  permission: ['read'],
  verifiedRequired: false,
  effect: 'read-only',
  handler: async ({ rt, access }) => ({ domains: (await listDomains(rt, access.space.id)).map((d) => domainView(rt, d)) }),
  text: (out) =>
    `${plural(out.domains.length, 'domaine', 'domaines')}` +
    (out.domains.length ? ' : ' + out.domains.map((d) => `${quote(d.domain)} (${STATUS_WORDS[d.status]})`).join(', ') : '') +
    '.',
});
