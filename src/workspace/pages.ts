/**
 * The workspace's pages (interface.md navigate_workspace, decisions.md 6): each page is read with
 * public tools, with the caller's rights. The table is plain data because two readers share it:
 * workspace_events (the `result` of a navigation) and the view itself (a local navigation, where it
 * reads the page through App.callServerTool or /v1/<tool>), so both always read the same tools.
 */
export const PAGES = [
  'jour', 'valider', 'fils', 'campagnes', 'performances', 'audiences', 'contacts', 'boites', 'domaines', 'blocages', 'espace',
] as const;

export type Page = (typeof PAGES)[number];

/** The read arguments a route may carry (interface.md navigate_workspace). */
export const ROUTE_ARGUMENTS = ['query', 'email', 'campaign_id', 'audience_id', 'thread_id', 'message_id'] as const;

export type RouteArguments = Partial<Record<(typeof ROUTE_ARGUMENTS)[number], string>>;

export interface Route {
  page: Page;
  arguments: RouteArguments;
}

/**
 * One tool a page reads: `pass` maps the tool's parameter to the route argument that fills it (only
 * when given); `when` / `unless` name a route argument that must be present / absent for this read.
 */
export interface PageRead {
  tool: string;
  pass?: Record<string, keyof RouteArguments>;
  when?: keyof RouteArguments;
  unless?: keyof RouteArguments;
}

export const PAGE_READS: Record<Page, PageRead[]> = {
  jour: [{ tool: 'list_events' }],
  valider: [{ tool: 'list_drafts' }],
  fils: [
    { tool: 'get_thread', pass: { thread_id: 'thread_id' }, when: 'thread_id' },
    { tool: 'list_threads', unless: 'thread_id' },
  ],
  campagnes: [{ tool: 'list_campaigns' }],
  performances: [
    { tool: 'campaign_status', pass: { campaign_id: 'campaign_id' }, when: 'campaign_id' },
    { tool: 'list_campaigns', unless: 'campaign_id' },
  ],
  audiences: [{ tool: 'list_audiences' }, { tool: 'list_contacts', pass: { audience_id: 'audience_id' }, when: 'audience_id' }],
  contacts: [
    { tool: 'get_contact', pass: { email: 'email' }, when: 'email' },
    { tool: 'list_contacts', pass: { audience_id: 'audience_id', query: 'query' }, unless: 'email' },
  ],
  boites: [{ tool: 'list_inboxes' }],
  domaines: [{ tool: 'list_domains' }],
  blocages: [{ tool: 'list_suppressions' }],
  espace: [{ tool: 'get_settings' }, { tool: 'billing_status' }, { tool: 'list_keys' }],
};

/** The tool calls that read a route, in the table's order. */
export function readsOf(route: Route): { tool: string; arguments: Record<string, string> }[] {
  const given = (name: keyof RouteArguments | undefined) => name !== undefined && route.arguments[name] !== undefined;
  return PAGE_READS[route.page]
    .filter((read) => (!read.when || given(read.when)) && (!read.unless || !given(read.unless)))
    .map((read) => ({
      tool: read.tool,
      arguments: Object.fromEntries(
        Object.entries(read.pass ?? {}).flatMap(([param, from]) => (given(from) ? [[param, route.arguments[from]!]] : [])),
      ),
    }));
}

/** The route as one canonical text (sorted keys): equal routes are equal texts, in Redis too. */
export const routeText = (route: Route): string =>
  JSON.stringify({ page: route.page, arguments: Object.fromEntries(Object.entries(route.arguments).sort(([a], [b]) => (a < b ? -1 : 1))) });

/** The MCP App resource that shows the workspace (src/workspace/view.ts). */
export const WORKSPACE_RESOURCE_URI = 'ui://workspace';
