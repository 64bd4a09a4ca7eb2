/**
 * The typed HTTP client of Mailbox: openapi-fetch over the types generated from /v1/openapi.json
 * (schema.d.ts). Every tool is `POST /v1/<tool>`; bodies, answers and refusals are typed per tool.
 */
import createClient, { type Client } from 'openapi-fetch';
import type { components, operations, paths } from './schema.js';

export type { components, operations, paths };
export type MailboxClient = Client<paths>;
/** A tool's name, e.g. `'send_email'`. */
export type ToolName = keyof operations;
export type ToolInput<T extends ToolName> = operations[T]['requestBody']['content']['application/json'];
export type ToolOutput<T extends ToolName> = operations[T]['responses'][200]['content']['application/json'];
/** A refusal: `{ error: { code, message, hint } }`, the same for every status. */
export type MailboxRefusal = components['schemas']['Error'];

/** A client calling the service at `baseUrl` (e.g. `https://mail.example.org`) with the API key `key`. */
export function createMailboxClient(baseUrl: string, key: string): MailboxClient {
  return createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${key}` } });
}
