import { Type } from '@sinclair/typebox';
import { navigateInstance } from '../../actors/workspace.js';
import { defineTool } from './registry.js';
import { InstanceId, Input, NavigationReceipt, Output, WorkspaceArguments, WorkspacePage } from './schemas.js';

export default defineTool({
  name: 'navigate_workspace',
  description:
    "Pilote l'espace de travail déjà ouvert (instance_id tiré de son contexte : n'en inventez jamais, ne réutilisez pas celui d'une autre " +
    "conversation) sans créer de nouvelle carte ; n'envoie rien. page : jour, valider, fils, campagnes, performances, audiences, contacts, " +
    'boites, domaines, blocages, espace ; arguments : query, email, campaign_id, audience_id, thread_id, message_id pour ouvrir un détail, ' +
    'inbox_id, label, archived, unread, status pour filtrer une liste. ' +
    "La réponse accuse réception (status pending) sans confirmer l'affichage ni contenir la page ; la même page que la dernière demandée " +
    'répond unchanged. workspace_expired : rouvrez avec open_workspace.',
  input: Input({
    page: WorkspacePage,
    arguments: Type.Optional(WorkspaceArguments),
    instance_id: InstanceId,
  }),
  output: Output({
    _navigation: Type.Optional(NavigationReceipt),
    closed: Type.Boolean({ description: 'toujours false ici : une instance fermée répond workspace_expired' }),
    instance_id: InstanceId,
    sequence: Type.Integer({ description: "séquence de l'instance ; la vue ignore les commandes plus anciennes" }),
    status: Type.Optional(
      Type.Literal('pending', { description: 'navigation demandée, pas encore confirmée affichée' }),
    ),
    unchanged: Type.Boolean({ description: 'true : cette page était déjà la dernière demandée, rien de nouveau' }),
  }),
  permission: 'any',
  verifiedRequired: false,
  effect: 'read-only',
  async handler({ rt, access }, input) {
    const route = { page: input.page, arguments: input.arguments ?? {} };
    const { unchanged, sequence } = await navigateInstance(rt, access, input.instance_id, route);
    const base = { closed: false, instance_id: input.instance_id, sequence, unchanged };
    return unchanged
      ? base
      : { ...base, status: 'pending' as const, _navigation: { instance_id: input.instance_id, sequence, route } };
  },
  text: (out, input) =>
    out.unchanged
      ? `L'espace de travail ${out.instance_id} montre déjà la page « ${input.page} » : rien de nouveau (séquence ${out.sequence}).`
      : `Navigation de l'espace de travail ${out.instance_id} vers la page « ${input.page} »${input.arguments && Object.keys(input.arguments).length ? ` (${JSON.stringify(input.arguments)})` : ''} ` +
        `demandée (séquence ${out.sequence}) ; la vue l'affichera dès que possible. Cette réponse ne contient pas la page : lisez ses données avec les outils de lecture.`,
});
