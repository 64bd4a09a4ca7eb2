import { Type } from '@sinclair/typebox';
import { listAudiences } from '../../actors/audience.js';
import { plural, quote } from '../texts.js';
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
    `${plural(out.items.length, 'audience', 'audiences')}` +
    (out.items.length ? ' : ' + out.items.map((a) => `${quote(a.name)} (${a.id}, ${plural(a.contact_count, 'contact', 'contacts')})`).join(', ') : '') + '.',
});
