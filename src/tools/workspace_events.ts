import { Type } from '@sinclair/typebox';
import type { Access } from '../../actors/space.js';
import { currentAccess, syncView, waitForNavigation, type SyncMode, type SyncStep } from '../../actors/workspace.js';
import { asMailboxError } from '../errors.js';
import { readsOf, type Route } from '../workspace/pages.js';
import { defineTool, type ToolContext } from './registry.js';
import { InstanceId, Input, NavigationDelivery, Output } from './schemas.js';

/**
 * The page's data, read with the access's rights at this moment: each tool of the page (src/workspace/pages.ts)
 * through the one dispatch, a refusal kept as the tool's code and French message for the view to show.
 */
async function readPage(callAs: ToolContext['callAs'], access: Access, route: Route): Promise<Record<string, unknown>> {
  const reads = await Promise.all(
    readsOf(route).map(async (read) => {
      try {
        return [read.tool, await callAs(access, read.tool, read.arguments)] as const;
      } catch (error) {
        const refusal = asMailboxError(error);
        return [read.tool, { error: { code: refusal.code, message: refusal.message } }] as const;
      }
    }),
  );
  return Object.fromEntries(reads);
}

const modeOf = (input: { close?: boolean; local_navigation?: boolean }): SyncMode =>
  input.close ? 'close' : input.local_navigation ? 'barrier' : 'read';

export default defineTool({
  name: 'workspace_events',
  description:
    "Réservé à la vue de l'espace de travail. Attend jusqu'à 18 secondes une navigation de cette instance (after_sequence : dernière " +
    "commande reçue, 0 au départ) et rend la dernière avec les données de sa page, lues avec les droits de l'accès ; les commandes " +
    'intermédiaires sont superseded. ack_sequence : dernière commande traitée (jamais au-delà de la séquence disponible). ' +
    "local_navigation : barrière après un geste local, sans relire la page. close : libère l'instance. Deux attentes par instance, " +
    '64 pour le service (workspace_busy). Aucun envoi.',
  input: Input({
    instance_id: InstanceId,
    after_sequence: Type.Integer({
      minimum: 0,
      description: 'dernière commande reçue par la vue ; 0 avant la première',
    }),
    ack_sequence: Type.Optional(Type.Integer({ minimum: 0, description: 'dernière commande traitée par la vue' })),
    close: Type.Optional(Type.Boolean({ description: "libère l'instance à la fermeture de la vue, sans attendre" })),
    local_navigation: Type.Optional(Type.Boolean({ description: 'barrière de séquence après une navigation locale' })),
  }),
  output: Output({
    _navigation: Type.Optional(NavigationDelivery),
    closed: Type.Boolean(),
    instance_id: InstanceId,
    sequence: Type.Integer({ description: "séquence de l'instance à cet instant" }),
    status: Type.Optional(Type.Union([Type.Literal('pending'), Type.Literal('superseded')])),
    unchanged: Type.Boolean({ description: 'true : pas de nouvelle page à appliquer' }),
  }),
  permission: 'any',
  verifiedRequired: false,
  effect: 'read-only',
  ui: { visibility: ['app'] },
  async handler({ rt, access, callAs }, input) {
    const request = {
      instanceId: input.instance_id,
      afterSequence: input.after_sequence,
      ackSequence: input.ack_sequence ?? null,
      mode: modeOf(input),
    };
    let step: SyncStep = await syncView(rt, access, request);
    let reader = access;
    if ('wait' in step) {
      await waitForNavigation(rt, access, input.instance_id, step.from);
      reader = await currentAccess(rt, access);
      // Woken or not, the instance is the truth: read it again (a wait that ended unwoken answers unchanged).
      step = await syncView(rt, reader, { ...request, ackSequence: null });
    }
    const base = { closed: false, instance_id: input.instance_id, sequence: step.sequence, unchanged: true };
    if ('closed' in step) return { ...base, closed: true };
    if ('barrier' in step) return step.superseded ? { ...base, status: 'superseded' as const } : base;
    if ('superseded' in step) return { ...base, status: 'superseded' as const };
    if ('deliver' in step) {
      const route = JSON.parse(step.route) as Route;
      const result = await readPage(callAs, reader, route);
      return {
        ...base,
        unchanged: false,
        status: 'pending' as const,
        _navigation: { instance_id: input.instance_id, sequence: step.sequence, route, result },
      };
    }
    return base;
  },
  text: (out) =>
    out.closed
      ? 'Espace de travail fermé.'
      : out._navigation
        ? `Nouvelle page : « ${out._navigation.route.page} » (séquence ${out.sequence}).`
        : `Rien de nouveau (séquence ${out.sequence}).`,
});
