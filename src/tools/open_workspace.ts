import { Type } from '@sinclair/typebox';
import { openInstance } from '../../actors/workspace.js';
import { WORKSPACE_RESOURCE_URI } from '../workspace/pages.js';
import { defineTool } from './registry.js';
import { parisStamp } from '../texts.js';
import {
  InstanceId,
  IsoDate,
  Input,
  Notice,
  Output,
  WorkspaceArguments,
  WorkspacePage,
  WorkspaceRoute,
} from './schemas.js';

export default defineTool({
  name: 'open_workspace',
  description:
    "Ouvre l'espace de travail de l'humain (vue en français : journal du jour, brouillons à valider, fils, campagnes, boîtes, domaines, " +
    "blocages, espace) sur la page demandée (jour par défaut) et rend son instance_id. L'assistant l'affiche comme application MCP " +
    '(ui://workspace) puis la pilote avec navigate_workspace et cet instance_id. Au plus 10 espaces de travail ouverts par espace ; ' +
    'une instance expire 30 minutes après le dernier appel de la vue.',
  input: Input({
    page: Type.Optional(WorkspacePage),
    arguments: Type.Optional(WorkspaceArguments),
  }),
  output: Output({
    instance_id: InstanceId,
    sequence: Type.Integer({ description: 'séquence de départ : 0' }),
    route: WorkspaceRoute,
    expires_at: IsoDate,
    resource_uri: Type.String({ description: 'la ressource MCP App qui affiche la vue' }),
    notice: Notice,
  }),
  permission: 'any',
  verifiedRequired: false,
  effect: 'read-only',
  ui: { resourceUri: WORKSPACE_RESOURCE_URI },
  async handler({ rt, access }, input) {
    const opened = await openInstance(rt, access, { page: input.page ?? 'jour', arguments: input.arguments ?? {} });
    return { ...opened, resource_uri: WORKSPACE_RESOURCE_URI };
  },
  notice: (out) =>
    `Pilotez-le avec navigate_workspace (instance_id ${out.instance_id}) plutôt que d'en ouvrir un autre ; il expire 30 minutes après le dernier appel de la vue.`,
  text: (out) =>
    `Espace de travail ${out.instance_id} ouvert sur la page « ${out.route.page} »${Object.keys(out.route.arguments).length ? ` (${JSON.stringify(out.route.arguments)})` : ''}, ` +
    `affiché par la ressource ${out.resource_uri} ; expire le ${parisStamp(out.expires_at)} sans appel de la vue.`,
});
