import type { TSchema } from '@sinclair/typebox';
import { ERROR_CODES, statusOf, type ErrorCode } from '../errors.js';
import { TOOLS } from '../tools/index.js';
import { refusalsOf } from '../tools/refusals.js';
import type { Tool } from '../tools/registry.js';
import { takesIdempotencyKey } from './io.js';
import { LICENSE, VERSION } from '../version.js';

/** JSON of a TypeBox schema without its symbol keys. */
const plain = (schema: TSchema): unknown => JSON.parse(JSON.stringify(schema));

const ErrorBody = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'hint'],
      properties: {
        code: { type: 'string', enum: ERROR_CODES },
        message: { type: 'string', description: 'phrase en français, qui finit par ce qu’il faut faire' },
        hint: { anyOf: [{ type: 'object' }, { type: 'null' }] },
      },
    },
  },
};

const IDEMPOTENCY_HEADER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: 'le paramètre idempotency_key, donné en en-tête ; un champ idempotency_key différent est refusé',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};

/** The areas operations are grouped by, as in docs/tools.md; a tool in none of them stops the document. */
const TAGS: readonly { name: string; description: string; tools: readonly string[] }[] = [
  { name: 'keys', description: "Clés d'API des agents", tools: ['create_key', 'list_keys', 'revoke_key'] },
  {
    name: 'space',
    description: "L'espace : réglages, humain, vérification, fermeture",
    tools: ['get_settings', 'attach_human', 'verify', 'close_space'],
  },
  {
    name: 'events',
    description: 'Journal, webhooks et flux des événements',
    tools: ['list_events', 'set_webhook', 'event_feed'],
  },
  {
    name: 'inboxes',
    description: 'Boîtes',
    tools: ['create_inbox', 'list_inboxes', 'inbox_status', 'delete_inbox', 'request_inbox_review'],
  },
  {
    name: 'domains',
    description: "Domaines d'envoi",
    tools: ['add_domain', 'verify_domain', 'list_domains', 'remove_domain'],
  },
  {
    name: 'sending',
    description: 'Envois, brouillons et messages',
    tools: [
      'send_email',
      'reply_to_thread',
      'get_message',
      'get_attachment',
      'cancel_message',
      'approve_message',
      'list_drafts',
      'update_draft',
    ],
  },
  {
    name: 'threads',
    description: 'Fils de conversation et courrier reçu',
    tools: ['list_threads', 'get_thread', 'classify_thread', 'search_threads'],
  },
  { name: 'billing', description: 'Offre et abonnement', tools: ['billing_status', 'subscribe'] },
  {
    name: 'suppressions',
    description: 'Adresses et domaines bloqués',
    tools: ['list_suppressions', 'add_suppression', 'remove_suppression'],
  },
  {
    name: 'filters',
    description: "Filtres d'envoi et de réception",
    tools: ['add_filter', 'list_filters', 'remove_filter'],
  },
  {
    name: 'workspace',
    description: "L'espace de travail de l'humain",
    tools: ['open_workspace', 'navigate_workspace', 'workspace_events'],
  },
  {
    name: 'audiences',
    description: 'Audiences et contacts',
    tools: [
      'create_audience',
      'add_contacts',
      'remove_contacts',
      'list_audiences',
      'list_contacts',
      'get_contact',
      'delete_audience',
    ],
  },
  {
    name: 'campaigns',
    description: 'Campagnes et performances',
    tools: ['create_campaign', 'start_campaign', 'pause_campaign', 'list_campaigns', 'campaign_status'],
  },
];

const tagOf = (tool: Tool): string => {
  const tag = TAGS.find((candidate) => candidate.tools.includes(tool.name));
  if (!tag) throw new Error(`${tool.name}: no tag in src/http/openapi.ts`);
  return tag.name;
};

/** One response per status the tool can refuse with, its description naming the codes behind it. */
function errorResponses(tool: Tool): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of refusalsOf(tool)) byStatus.set(statusOf(code), [...(byStatus.get(statusOf(code)) ?? []), code]);
  const statuses = [...byStatus.keys()].sort((a, b) => a - b);
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      {
        description: `Refus : ${byStatus.get(status)!.join(', ')}`,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    ]),
  );
}

/** The OpenAPI document, generated from the same schemas as HTTP validation and MCP. */
export function openApiDocument(baseUrl: string): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const tool of TOOLS) {
    paths[`/v1/${tool.name}`] = {
      post: {
        operationId: tool.name,
        summary: tool.name,
        tags: [tagOf(tool)],
        description: tool.description,
        'x-permission': tool.permission,
        'x-verified-required': tool.verifiedRequired,
        'x-effect': tool.effect,
        ...(takesIdempotencyKey(tool) ? { parameters: [IDEMPOTENCY_HEADER] } : {}),
        requestBody: { required: true, content: { 'application/json': { schema: plain(tool.input) } } },
        responses: {
          200: { description: 'OK', content: { 'application/json': { schema: plain(tool.output) } } },
          ...errorResponses(tool),
        },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Mailbox',
      version: VERSION,
      description: 'E-mail service for autonomous agents.',
      license: { name: LICENSE, identifier: LICENSE },
    },
    servers: [{ url: baseUrl }],
    security: [{ bearer: [] }],
    tags: TAGS.map(({ name, description }) => ({ name, description })),
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: { Error: ErrorBody },
      'x-error-statuses': Object.fromEntries(ERROR_CODES.map((code) => [code, statusOf(code)])),
    },
  };
}
