import { Type } from '@sinclair/typebox';
import { revokeKey } from '../../actors/space.js';
import { quote } from '../texts.js';
import { defineTool } from './registry.js';
import { Confirm, Id, Input, Output } from './schemas.js';

export default defineTool({
  name: 'revoke_key',
  description:
    "Retire un accès : une clé d'agent ou un assistant connecté. Il cesse de répondre aussitôt, sans retour ; ce qu'il a écrit " +
    'ou mis en file reste. Un accès ne peut pas se révoquer lui-même.',
  input: Input({ key_id: Id('key'), confirm: Confirm }),
  output: Output({
    kind: Type.Union([Type.Literal('key'), Type.Literal('connection')]),
    name: Type.String(),
    revoked: Id('key'),
  }),
  permission: ['approve'],
  verifiedRequired: false,
  effect: 'write, irreversible',
  async handler({ rt, access }, input) {
    const { kind, name } = await revokeKey(rt, access, input.key_id);
    return { kind, name, revoked: input.key_id };
  },
  hints: { idempotent: true },
  text: (out) =>
    `${out.kind === 'connection' ? 'Connexion' : 'Clé'} ${out.revoked} ${quote(out.name)} révoquée : elle ne répond plus ; ce qu'elle a écrit ou mis en file reste.`,
});
