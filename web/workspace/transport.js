// Every read and every action is a call of a public tool: through the assistant's host (ext-apps
// App.callServerTool) inside an MCP App, or POST /v1/<tool> in a browser. A refusal shows the tool's
// own French message.

/**
 * A tool result's structured answer: its structuredContent, or, from a host that drops it, the same
 * answer the server carries in `_meta` (src/mcp/server.ts), or else a text block that is JSON.
 */
function structuredOf(result) {
  if (result.structuredContent) return result.structuredContent;
  const meta = result._meta && result._meta[config.structuredKey];
  if (meta) return meta;
  for (const block of result.content || []) {
    if (block.type !== 'text') continue;
    try {
      const value = JSON.parse(block.text);
      if (value && typeof value === 'object') return value;
    } catch {
      // a text that is no JSON: the model's words, not data
    }
  }
  return null;
}

function mcpTransport() {
  const app = new McpApps.App({ name: 'mailbox-workspace', version: '1.0.0' });
  return {
    app,
    async call(name, args) {
      try {
        const result = await app.callServerTool({ name, arguments: args });
        const data = structuredOf(result);
        if (!result.isError && data) return { data };
        return { error: (data && data.error) || { code: 'internal', message: 'Le service n’a pas répondu comme prévu.' } };
      } catch (error) {
        // A protocol refusal (an unknown tool): the server's French message, without the SDK's prefix.
        return { error: { code: 'not_found', message: String(error.message || error).replace(/^MCP error -?\d+: /, '') } };
      }
    },
  };
}

function webTransport(key) {
  return {
    async call(name, args, options) {
      const headers = { 'content-type': 'application/json', 'x-mailbox-view': 'workspace' };
      if (key) headers.authorization = `Bearer ${key}`;
      try {
        const response = await fetch(`/v1/${name}`, { method: 'POST', headers, body: JSON.stringify(args), credentials: 'same-origin', keepalive: Boolean(options && options.keepalive) });
        const body = await response.json().catch(() => ({}));
        return response.ok ? { data: body } : { error: body.error || { code: 'internal', message: 'Erreur du service.' } };
      } catch {
        return { error: { code: 'unavailable', message: 'Le service ne répond pas. Vérifiez la connexion puis réessayez.' } };
      }
    },
  };
}

const call = (name, args, options) => state.transport.call(name, args || {}, options);

/** The tool calls that read a route (src/workspace/pages.ts readsOf, from the same table). */
function readsOf(route) {
  const given = (name) => route.arguments[name] !== undefined;
  return config.pages[route.page]
    .filter((read) => (!read.when || given(read.when)) && !(read.unless || []).some(given))
    .map((read) => ({
      tool: read.tool,
      arguments: { ...read.with, ...Object.fromEntries(Object.entries(read.pass || {}).filter(([, from]) => given(from)).map(([param, from]) => [param, route.arguments[from]])) },
    }));
}
const readOf = (route, tool) => readsOf(route).find((read) => read.tool === tool);

async function readRoute(route) {
  const reads = await Promise.all(readsOf(route).map(async (read) => {
    const answer = await call(read.tool, read.arguments);
    return [read.tool, answer.error ? { error: answer.error } : answer.data];
  }));
  return Object.fromEntries(reads);
}
