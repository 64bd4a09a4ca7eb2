/**
 * The workspace view: ONE self-contained HTML document (web/workspace/: index.html, style.css and the
 * view's scripts, inlined), served as the MCP App resource ui://workspace and, for a person in a
 * browser, at every address under /workspace. Hosts' default CSP forbids any fetch from an MCP App, so
 * everything is inline, the ext-apps `App` bundle too.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { PERMISSION_WORDS } from '../texts.js';
import { ROOT } from '../paths.js';
import { OBJECT_ARGUMENT, PAGE_READS, ROUTE_ARGUMENTS, STRUCTURED_META_KEY } from './pages.js';

/** Where the view runs: inside an assistant (MCP App, tools through the host) or in a browser (/v1/<tool>). */
export type ViewMode = 'mcp' | 'web';

const WEB_DIR = join(ROOT, 'web', 'workspace');

/**
 * The view's scripts, in this order, as one script: one scope, strict, the last one starting the view.
 * No bundler: each file is a plain part of that scope (docs/workspace.md).
 */
const SCRIPTS = ['base.js', 'transport.js', 'pages-mail.js', 'pages-campaigns.js', 'pages-space.js', 'app.js'];

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

/**
 * A script as it is inlined: its lines without their indentation and without the comment lines (`//`,
 * and `/**` blocks, whose lines all start with `/*` or `*`: the view's scripts never start a line of
 * code so). The files keep their comments for their readers; the MCP App's document has a size budget
 * (docs/workspace.md).
 */
const compact = (source: string): string =>
  source
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !/^(\/\/|\/\*|\*)/.test(line))
    .join('\n');

/** What the view knows of the service: its mode, the page table, the address rules, the words shared with the tools. */
const configOf = (mode: ViewMode, baseUrl: string) => ({
  mode,
  baseUrl,
  pages: PAGE_READS,
  objects: OBJECT_ARGUMENT,
  arguments: ROUTE_ARGUMENTS,
  permissionWords: PERMISSION_WORDS,
  structuredKey: STRUCTURED_META_KEY,
});

function build(mode: ViewMode, baseUrl: string): string {
  const config = inlineSafe(JSON.stringify(configOf(mode, baseUrl)));
  const bundle = mode === 'mcp' ? `<script>${inlineSafe(appBundle())}</script>` : '';
  const script = SCRIPTS.map((file) => compact(readFileSync(join(WEB_DIR, file), 'utf8'))).join('\n');
  return readFileSync(join(WEB_DIR, 'index.html'), 'utf8')
    .replace(
      '/*ICON*/',
      () => `data:image/svg+xml,${encodeURIComponent(readFileSync(join(WEB_DIR, 'icon.svg'), 'utf8').trim())}`,
    )
    .replace('/*STYLE*/', () => readFileSync(join(WEB_DIR, 'style.css'), 'utf8'))
    .replace('<!--CONFIG-->', () => `<script type="application/json" id="workspace-config">${config}</script>`)
    .replace('<!--APP-->', () => bundle)
    .replace('/*SCRIPT*/', () => inlineSafe(`(() => {\n'use strict';\n${script}\n})();`));
}

const built = new Map<string, string>();

/** The document for a mode and the service's address, built once per process. */
export function workspaceHtml(mode: ViewMode, baseUrl: string): string {
  const key = `${mode} ${baseUrl}`;
  let html = built.get(key);
  if (!html) built.set(key, (html = build(mode, baseUrl)));
  return html;
}
