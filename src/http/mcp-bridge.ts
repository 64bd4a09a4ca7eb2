/** The transport side: a uWS request becomes a Fetch Request for the SDK's web-standard transport, and back. */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Access } from '../../actors/space.js';
import type { IncomingRequest, Reply } from './io.js';
import type { Runtime } from '../runtime.js';
import { createMcpServer } from '../mcp/server.js';

/** `message`: the POST's body, parsed (src/http/server.ts counts a batch's calls from it). */
export async function handleMcp(
  rt: Runtime,
  request: IncomingRequest,
  message: unknown,
  access: Access,
): Promise<Reply> {
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  const server = createMcpServer(rt, access);
  request.onAbort = () => void transport.close();
  try {
    await server.connect(transport);
    const fetchRequest = new Request(`${rt.config.baseUrl}${request.url}`, {
      method: request.method,
      headers: request.headers,
    });
    const response = await transport.handleRequest(fetchRequest, { parsedBody: message });
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    return { status: response.status, headers, body: new Uint8Array(await response.arrayBuffer()) };
  } finally {
    request.onAbort = null;
    await server.close();
  }
}
