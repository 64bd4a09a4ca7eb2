/** The transport side: a uWS request becomes a Fetch Request for the SDK's web-standard transport, and back. */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Access } from '../../actors/space.js';
import { parseJson, type IncomingRequest, type Reply } from './io.js';
import type { Runtime } from '../runtime.js';
import { createMcpServer } from '../mcp/server.js';

export async function handleMcp(rt: Runtime, request: IncomingRequest, body: Buffer, access: Access): Promise<Reply> {
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  const server = createMcpServer(rt, access);
  request.onAbort = () => void transport.close();
  try {
    await server.connect(transport);
    const fetchRequest = new Request(`${rt.config.baseUrl}${request.url}`, {
      method: request.method,
      headers: request.headers,
    });
    const parsedBody = request.method === 'POST' ? parseJson(body) : undefined;
    const response = await transport.handleRequest(fetchRequest, { parsedBody });
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
