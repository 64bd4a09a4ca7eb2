/**
 * The workspace's document itself, without a browser: the MCP App's HTML stays under 100 KB gzipped
 * (docs/workspace.md), the tools the view calls are those whose MCP results carry their answer in
 * `_meta` too, the addresses of routes, and what an MCP result carries for a host that drops
 * structuredContent.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import t from 'tap';
import { ROOT } from '../../src/paths.js';
import { PAGE_READS, routePath, STRUCTURED_META_KEY, VIEW_CALLS, VIEW_TOOLS } from '../../src/workspace/pages.js';
import { workspaceHtml } from '../../src/workspace/view.js';
import { startService } from '../helpers/service.js';

/** The budget of the MCP App's document, gzipped: hosts load it in every conversation that shows it. */
const BUDGET_BYTES = 100_000;

t.test('the MCP App document stays under 100 KB gzipped; the browser one has no ext-apps bundle', async (t) => {
  const mcp = gzipSync(workspaceHtml('mcp', 'https://mailbox.exemple.fr')).length;
  const web = gzipSync(workspaceHtml('web', 'https://mailbox.exemple.fr')).length;
  t.ok(mcp < BUDGET_BYTES, `ui://workspace: ${mcp} bytes gzipped, under ${BUDGET_BYTES}`);
  t.ok(web < mcp / 3, `/workspace: ${web} bytes gzipped`);
  t.notMatch(workspaceHtml('web', 'x'), /\/\/ |^\/\*\*/m, 'no comment line inlined');
});

t.test('the tools the view calls are those whose results carry their answer in _meta too', async (t) => {
  const dir = join(ROOT, 'web', 'workspace');
  const source = readdirSync(dir)
    .filter((file) => file.endsWith('.js'))
    .map((file) => readFileSync(join(dir, file), 'utf8'))
    .join('\n');
  const called = new Set(
    [...source.matchAll(/(?:call|act)\('([a-z_]+)'|tool: '([a-z_]+)'/g)].map((m) => m[1] ?? m[2]!),
  );
  t.same(
    [...called].filter((tool) => !VIEW_TOOLS.has(tool)),
    [],
    'every tool the view calls is in VIEW_TOOLS',
  );
  t.same(
    VIEW_CALLS.filter((tool) => !called.has(tool)),
    [],
    'VIEW_CALLS names no tool the view no longer calls',
  );
  for (const reads of Object.values(PAGE_READS)) for (const read of reads) t.ok(VIEW_TOOLS.has(read.tool), read.tool);
});

t.test('the address of a route', async (t) => {
  t.equal(routePath({ page: 'jour', arguments: {} }), '/workspace');
  t.equal(routePath({ page: 'valider', arguments: {} }), '/workspace/valider');
  t.equal(
    routePath({ page: 'fils', arguments: { thread_id: 'thr_1', message_id: 'msg_2' } }),
    '/workspace/fils/thr_1?message_id=msg_2',
  );
  t.equal(
    routePath({ page: 'fils', arguments: { label: 'à faire', unread: true } }),
    '/workspace/fils?label=%C3%A0+faire&unread=true',
  );
  t.equal(
    routePath({ page: 'contacts', arguments: { email: 'claire@exemple.fr' } }),
    '/workspace/contacts/claire%40exemple.fr',
  );
  t.equal(routePath({ page: 'campagnes', arguments: { campaign_id: 'cmp_1' } }), '/workspace/campagnes/cmp_1');
});

t.test("an MCP result carries the view's answers in _meta, and every refusal's error body", async (t) => {
  const svc = await startService();
  const { apiKey } = await svc.space();
  const client = await svc.mcp(apiKey);
  const settings = await client.callTool({ name: 'get_settings', arguments: {} });
  t.same(
    (settings._meta as Record<string, unknown>)[STRUCTURED_META_KEY],
    settings.structuredContent,
    'a tool the view reads: its answer again',
  );
  const created = await client.callTool({ name: 'create_key', arguments: { name: 'agent' } });
  t.notOk(created._meta, 'a tool the view never calls: nothing more (its secret not twice)');
  const refused = await client.callTool({ name: 'get_thread', arguments: { thread_id: 'thr_01m83pph0031148be96h' } });
  t.match(
    (refused._meta as Record<string, unknown>)[STRUCTURED_META_KEY],
    { error: { code: 'not_found' } },
    'a refusal: its error body',
  );
});
