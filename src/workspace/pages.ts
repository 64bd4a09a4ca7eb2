/**
 * The workspace's pages (docs/contract.md navigate_workspace, docs/contract.md, Decision 6): each page is read with
 * public tools, with the caller's rights. The table is plain data because two readers share it:
 * workspace_events (the `result` of a navigation) and the view itself (a local navigation, where it
 * reads the page through App.callServerTool or /v1/<tool>), so both always read the same tools.
 */
export const PAGES = [
  'jour',
  'valider',
  'fils',
  'campagnes',
  'performances',
  'audiences',
  'contacts',
  'boites',
  'domaines',
  'blocages',
  'espace',
] as const;

export type Page = (typeof PAGES)[number];

/**
 * The read arguments a route may carry (docs/contract.md navigate_workspace), and their type: an object to
 * open, a search, the filters of a list (docs/workspace.md). src/tools/schemas.ts WorkspaceArguments
 * describes them; the view reads and writes them in its address.
 */
export const ROUTE_ARGUMENTS = {
  query: 'string',
  email: 'string',
  campaign_id: 'string',
  audience_id: 'string',
  thread_id: 'string',
  message_id: 'string',
  inbox_id: 'string',
  label: 'string',
  archived: 'boolean',
  unread: 'boolean',
  status: 'string',
} as const;

type ArgumentName = keyof typeof ROUTE_ARGUMENTS;
export type RouteArguments = {
  [name in ArgumentName]?: (typeof ROUTE_ARGUMENTS)[name] extends 'boolean' ? boolean : string;
};

export interface Route {
  page: Page;
  arguments: RouteArguments;
}

/**
 * One tool a page reads: `pass` maps the tool's parameter to the route argument that fills it (only
 * when given); `with` gives fixed parameters; `when` names a route argument that must be present for
 * this read, `unless` the ones that must all be absent.
 */
export interface PageRead {
  tool: string;
  pass?: Record<string, ArgumentName>;
  with?: Record<string, unknown>;
  when?: ArgumentName;
  unless?: ArgumentName[];
}

/** The inboxes' addresses, as Fils (its filter, its rows) and a campaign (its sending inboxes) show them: 100 at most. */
const INBOXES: PageRead = { tool: 'list_inboxes', with: { limit: 100 } };

export const PAGE_READS: Record<Page, PageRead[]> = {
  jour: [{ tool: 'list_events' }],
  valider: [{ tool: 'list_drafts' }],
  fils: [
    { tool: 'get_thread', pass: { thread_id: 'thread_id' }, when: 'thread_id' },
    {
      tool: 'search_threads',
      pass: { query: 'query', inbox_id: 'inbox_id', label: 'label' },
      when: 'query',
      unless: ['thread_id'],
    },
    {
      tool: 'list_threads',
      pass: { inbox_id: 'inbox_id', label: 'label', archived: 'archived', unread: 'unread' },
      unless: ['thread_id', 'query'],
    },
    INBOXES,
  ],
  campagnes: [
    { tool: 'campaign_status', pass: { campaign_id: 'campaign_id' }, when: 'campaign_id' },
    { ...INBOXES, when: 'campaign_id' },
    { tool: 'list_campaigns', pass: { status: 'status' }, unless: ['campaign_id'] },
  ],
  performances: [
    { tool: 'campaign_status', pass: { campaign_id: 'campaign_id' }, when: 'campaign_id' },
    { ...INBOXES, when: 'campaign_id' },
    { tool: 'list_campaigns', pass: { status: 'status' }, unless: ['campaign_id'] },
  ],
  audiences: [
    { tool: 'list_audiences' },
    { tool: 'list_contacts', pass: { audience_id: 'audience_id' }, when: 'audience_id' },
  ],
  contacts: [
    { tool: 'get_contact', pass: { email: 'email' }, when: 'email' },
    { tool: 'list_contacts', pass: { audience_id: 'audience_id', query: 'query' }, unless: ['email'] },
  ],
  boites: [{ tool: 'list_inboxes' }],
  domaines: [{ tool: 'list_domains' }],
  blocages: [{ tool: 'list_suppressions' }],
  espace: [{ tool: 'get_settings' }, { tool: 'billing_status' }, { tool: 'list_keys' }],
};

/** The tool calls that read a route, in the table's order. */
export function readsOf(route: Route): { tool: string; arguments: Record<string, unknown> }[] {
  const given = (name: ArgumentName) => route.arguments[name] !== undefined;
  return PAGE_READS[route.page]
    .filter((read) => (!read.when || given(read.when)) && !(read.unless ?? []).some(given))
    .map((read) => ({
      tool: read.tool,
      arguments: {
        ...read.with,
        ...Object.fromEntries(
          Object.entries(read.pass ?? {}).flatMap(([param, from]) =>
            given(from) ? [[param, route.arguments[from]]] : [],
          ),
        ),
      },
    }));
}

/**
 * The route argument a page's address carries as its last segment, the object it opens
 * (`/workspace/fils/thr_…`); the others go in its query (`/workspace/fils?label=devis`).
 */
export const OBJECT_ARGUMENT: Partial<Record<Page, ArgumentName>> = {
  fils: 'thread_id',
  campagnes: 'campaign_id',
  performances: 'campaign_id',
  audiences: 'audience_id',
  contacts: 'email',
};

/** The address of a route under /workspace (docs/contract.md, Decision 16): `jour` is /workspace itself. The view writes the same (web/). */
export function routePath(route: Route): string {
  const object = OBJECT_ARGUMENT[route.page];
  const rest = Object.entries(route.arguments).filter(([name, value]) => name !== object && value !== undefined);
  const query = rest.length ? `?${new URLSearchParams(rest.map(([name, value]) => [name, String(value)]))}` : '';
  const segment =
    object && route.arguments[object] !== undefined ? `/${encodeURIComponent(String(route.arguments[object]))}` : '';
  return `/workspace${route.page === 'jour' && !segment ? '' : `/${route.page}`}${segment}${query}`;
}

/** The route as one canonical text (sorted keys): equal routes are equal texts, in Redis too. */
export const routeText = (route: Route): string =>
  JSON.stringify({
    page: route.page,
    arguments: Object.fromEntries(Object.entries(route.arguments).sort(([a], [b]) => (a < b ? -1 : 1))),
  });

/**
 * The tools the view calls besides its pages' reads (web/workspace/*.js): its own protocol, the reads a
 * page makes once shown (a draft's answered message, a campaign's figures, an attachment's link) and
 * the actions. test/workspace/view.test.ts checks that the view calls no other.
 */
export const VIEW_CALLS = [
  'open_workspace',
  'workspace_events',
  'get_settings',
  'get_message',
  'get_attachment',
  'campaign_status',
  'approve_message',
  'update_draft',
  'cancel_message',
  'classify_thread',
  'start_campaign',
  'pause_campaign',
  'create_audience',
  'request_inbox_review',
  'verify_domain',
  'add_suppression',
  'remove_suppression',
  'revoke_key',
  'close_space',
] as const;

/** Where an MCP tool result carries its structured answer again (src/mcp/server.ts, docs/workspace.md). */
export const STRUCTURED_META_KEY = 'mailbox/structured';

/**
 * Every tool whose answer the view reads. Some MCP hosts hand an app a tool result without its
 * `structuredContent`: src/mcp/server.ts copies it into `_meta["mailbox/structured"]` for these.
 */
export const VIEW_TOOLS: ReadonlySet<string> = new Set([
  ...Object.values(PAGE_READS)
    .flat()
    .map((read) => read.tool),
  ...VIEW_CALLS,
]);

/** The MCP App resource that shows the workspace (src/workspace/view.ts). */
export const WORKSPACE_RESOURCE_URI = 'ui://workspace';
