/**
 * An MCP Apps host as an assistant runs one: a page that renders a `ui://` resource in a sandboxed
 * iframe and talks to it through ext-apps' AppBridge (PostMessageTransport), forwarding the view's
 * tool calls to the server through the official MCP SDK client (here, in the test process, reached
 * from the page by playwright's exposeFunction). The page loads AppBridge and the SDK modules it needs
 * from node_modules through an import map: no bundler.
 */
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join, normalize } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Page } from 'playwright-core';
import t from 'tap';
import { ROOT } from '../../src/paths.js';

const MODULES = join(ROOT, 'node_modules');

const IMPORTS = {
  '@modelcontextprotocol/sdk/': '/nm/@modelcontextprotocol/sdk/dist/esm/',
  'zod/v4': '/nm/zod/v4/index.js',
  'zod/v4-mini': '/nm/zod/v4-mini/index.js',
  'zod/v3': '/nm/zod/v3/index.js',
  'zod-to-json-schema': '/nm/zod-to-json-schema/dist/esm/index.js',
};

const HOST_PAGE = `<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>Assistant de test</title>
<script type="importmap">${JSON.stringify({ imports: IMPORTS })}</script>
<style>body{margin:0;font-family:sans-serif}iframe{border:0;width:100%;height:100vh;display:block}</style></head>
<body><main id="host"></main>
<script type="module">
import { AppBridge, PostMessageTransport } from '/nm/@modelcontextprotocol/ext-apps/dist/src/app-bridge.js';
window.renderApp = async ({ html, toolInput, toolResult }) => {
  const iframe = document.createElement('iframe');
  iframe.setAttribute('sandbox', 'allow-scripts allow-forms');
  iframe.title = 'Espace de travail';
  document.getElementById('host').replaceChildren(iframe);
  const bridge = new AppBridge(null, { name: 'hote-de-test', version: '1.0.0' }, { serverTools: {} }, {
    hostContext: { theme: 'light', locale: 'fr-FR', timeZone: 'Europe/Paris', displayMode: 'inline' },
  });
  bridge.oncalltool = (params) => window.hostCallTool(params);
  const initialized = new Promise((resolve) => { bridge.oninitialized = resolve; });
  // Listening before the document loads: the view says hello as soon as its script runs.
  await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
  iframe.srcdoc = html;
  await initialized;
  await bridge.sendToolInput({ arguments: toolInput });
  await bridge.sendToolResult(toolResult);
  window.appBridge = bridge;
};
window.hostReady = true;
</script></body></html>`;

/** Serves the host page and, under /nm/, the installed modules it imports. */
async function startHostServer(): Promise<string> {
  const server = createServer(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://host').pathname);
    if (path === '/host.html') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(HOST_PAGE);
      return;
    }
    const file = normalize(join(MODULES, path.replace(/^\/nm\//, '')));
    if (!path.startsWith('/nm/') || !file.startsWith(MODULES)) {
      response.writeHead(404).end();
      return;
    }
    try {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(await readFile(file));
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.close();
    server.closeAllConnections();
  });
  const address = server.address() as { port: number };
  return `http://127.0.0.1:${address.port}`;
}

/** A host that hands the app its tool results without `structuredContent`, as some do (docs/workspace.md). */
const withoutStructured = <R extends Record<string, unknown>>(result: R): R => {
  const { structuredContent: _dropped, ...rest } = result;
  return rest as R;
};

/**
 * Opens the host in `page`, wired to `client`, then shows the app of `tool` called with `args`: the
 * tool's result and its `_meta.ui.resourceUri` resource read over MCP, as a host does. `stripStructured`:
 * the host drops `structuredContent` from every result it gives the app.
 */
export async function hostApp(
  page: Page,
  client: Client,
  tool: string,
  args: Record<string, unknown>,
  options: { stripStructured?: boolean } = {},
): Promise<Record<string, unknown>> {
  const base = await startHostServer();
  const handed = (result: Record<string, unknown>) => (options.stripStructured ? withoutStructured(result) : result);
  await page.exposeFunction('hostCallTool', async (params: { name: string; arguments?: Record<string, unknown> }) =>
    handed(await client.callTool(params)),
  );
  await page.goto(`${base}/host.html`);
  await page.waitForFunction(() => (window as unknown as { hostReady?: boolean }).hostReady === true);
  const { tools } = await client.listTools();
  const uri = (
    tools.find((candidate) => candidate.name === tool)?._meta as { ui?: { resourceUri?: string } } | undefined
  )?.ui?.resourceUri;
  if (!uri) throw new Error(`${tool} has no _meta.ui.resourceUri`);
  const resource = await client.readResource({ uri });
  const html = (resource.contents[0] as { text: string }).text;
  const result = await client.callTool({ name: tool, arguments: args });
  await page.evaluate((input) => (window as unknown as { renderApp(i: unknown): Promise<void> }).renderApp(input), {
    html,
    toolInput: args,
    toolResult: handed(result),
  });
  return result.structuredContent as Record<string, unknown>;
}
