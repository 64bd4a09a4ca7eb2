/**
 * `npm run client:generate`: writes clients/typescript/schema.d.ts, the client's types, from the
 * OpenAPI document the service serves, built in process (no server needed). A test regenerates it
 * and compares it with the committed file, so the client never drifts from the service.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { openApiDocument } from '../../src/http/openapi.js';
import { ROOT } from '../../src/paths.js';

export const SCHEMA_FILE = join(ROOT, 'clients/typescript/schema.d.ts');

const HEADER =
  '// Generated from GET /v1/openapi.json by `npm run client:generate` (openapi-typescript): do not edit.\n\n';

/** The text schema.d.ts must hold for the current registry. */
export async function clientSchema(): Promise<string> {
  // The server URL is not part of the types: any base URL gives the same file.
  const document = openApiDocument('http://localhost');
  return HEADER + astToString(await openapiTS(document as unknown as OpenAPI3));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(SCHEMA_FILE, await clientSchema());
  console.log(`wrote ${SCHEMA_FILE}`);
}
