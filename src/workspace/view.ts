/**
 * The workspace view: ONE self-contained HTML document (web/workspace.html, .css, .js inlined), served
 * as the MCP App resource ui://workspace and, for a person in a browser, at GET /workspace. Hosts'
 * default CSP forbids any fetch from an MCP App, so everything is inline, the ext-apps `App` bundle too.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT } from '../paths.js';
import { PAGE_READS } from './pages.js';

/** Where the view runs: inside an assistant (MCP App, tools through the host) or in a browser (/v1/<tool>). */
export type ViewMode = 'mcp' | 'web';

const WEB_DIR = join(ROOT, 'web');

/**
 * ext-apps' self-contained `App` bundle is an ES module ending in one `export{local as name,...}`; an
 * inline classic script cannot import, so the export list becomes one global, `McpApps`.
 */
function appBundle(): string {
  const path = createRequire(import.meta.url).resolve('@modelcontextprotocol/ext-apps/app-with-deps');
  const source = readFileSync(path, 'utf8');
  const exported = /export\s*\{([^}]*)\}\s*;?\s*$/.exec(source);
  if (!exported) throw new Error(`${path}: no final export list to inline`);
  const names = exported[1]!.split(',').map((entry) => {
    const [local, name] = entry.trim().split(/\s+as\s+/);
    return `${JSON.stringify(name ?? local)}:${local}`;
  });
  return `${source.slice(0, exported.index)}\nglobalThis.McpApps={${names.join(',')}};`;
}

/** `</` inside inline JSON or script would end the element early. */
const inlineSafe = (text: string): string => text.replace(/<\//g, '<\\/');

function build(mode: ViewMode): string {
  const config = inlineSafe(JSON.stringify({ mode, pages: PAGE_READS }));
  const bundle = mode === 'mcp' ? `<script>${inlineSafe(appBundle())}</script>` : '';
  return readFileSync(join(WEB_DIR, 'workspace.html'), 'utf8')
    .replace('/*STYLE*/', () => readFileSync(join(WEB_DIR, 'workspace.css'), 'utf8'))
    .replace('<!--CONFIG-->', () => `<script type="application/json" id="workspace-config">${config}</script>`)
    .replace('<!--APP-->', () => bundle)
    .replace('/*SCRIPT*/', () => inlineSafe(readFileSync(join(WEB_DIR, 'workspace.js'), 'utf8')));
}

const built = new Map<ViewMode, string>();

/** The document for a mode, built once per process. */
export function workspaceHtml(mode: ViewMode): string {
  let html = built.get(mode);
  if (!html) built.set(mode, (html = build(mode)));
  return html;
}
