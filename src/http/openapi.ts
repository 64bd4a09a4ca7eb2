import type { TSchema } from '@sinclair/typebox';
import { ERROR_CODES, statusOf } from '../errors.js';
import { TOOLS } from '../tools/index.js';
import { takesIdempotencyKey } from './io.js';
import { VERSION } from '../version.js';

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

/** The OpenAPI document, generated from the same schemas as HTTP validation and MCP. */
export function openApiDocument(baseUrl: string): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const tool of TOOLS) {
    paths[`/v1/${tool.name}`] = {
      post: {
        operationId: tool.name,
        summary: tool.name,
        description: tool.description,
        'x-permission': tool.permission,
        'x-verified-required': tool.verifiedRequired,
        'x-effect': tool.effect,
        ...(takesIdempotencyKey(tool) ? { parameters: [IDEMPOTENCY_HEADER] } : {}),
        requestBody: { required: true, content: { 'application/json': { schema: plain(tool.input) } } },
        responses: {
          200: { description: 'OK', content: { 'application/json': { schema: plain(tool.output) } } },
          default: { description: 'refus', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Mailbox', version: VERSION, description: 'E-mail service for autonomous agents.' },
    servers: [{ url: baseUrl }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: { Error: ErrorBody },
      'x-error-statuses': Object.fromEntries(ERROR_CODES.map((code) => [code, statusOf(code)])),
    },
  };
}
