import { Type } from '@sinclair/typebox';
import { listAudiences } from '../../actors/audience.js';
import { audienceLine } from '../texts/campaigns.js';
import { countOf, items, lines } from '../texts/lists.js';
import { defineTool } from './registry.js';
import { AudienceSchema, Input, Output } from './schemas.js';

export default defineTool({
  name: 'list_audiences',
  description: "Liste les audiences de l'espace, de la plus ancienne à la plus récente, avec leur nombre de contacts.",
  input: Input({}),
  output: Output({ items: Type.Array(AudienceSchema) }),
  permission: ['read'],
  verifiedRequired: false,
  effect: 'read-only',
  async handler({ rt, access }) {
    return { items: await listAudiences(rt, access.space.id) };
  },
  text: (out) =>
    lines(
      `${countOf(out.items.length, 'audience', 'audiences', 'Aucune audience')}, de la plus ancienne à la plus récente${out.items.length ? ' :' : '.'}`,
      items(out.items, (a) => [audienceLine(a)]),
    ),
});
