import { Type } from '@sinclair/typebox';
import { listKeys } from '../../actors/space.js';
import { countOf, items, lines } from '../texts/lists.js';
import { keyLine } from '../texts/space.js';
import { defineTool } from './registry.js';
import { Input, KeySchema, Output } from './schemas.js';

export default defineTool({
  name: 'list_keys',
  description: "Liste les accès actifs de l'espace (clés d'agents et assistants connectés), sans jamais leurs secrets.",
  input: Input({}),
  output: Output({ keys: Type.Array(KeySchema) }),
  permission: ['read'],
  verifiedRequired: false,
  effect: 'read-only',
  handler: async ({ rt, access }) => ({ keys: await listKeys(rt, access.space.id) }),
  text: (out) =>
    lines(
      `${countOf(out.keys.length, 'accès actif', 'accès actifs', 'Aucun accès actif')} (clés d'agents et assistants connectés)${out.keys.length ? ' :' : '.'}`,
      items(out.keys, (k) => [keyLine(k)]),
    ),
});
