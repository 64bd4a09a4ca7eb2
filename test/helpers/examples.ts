/**
 * One successful call per registered tool, for the test that calls every tool through the official
 * MCP SDK client (whose outputSchema validation must pass). A tool without an example fails that test:
 * add one here with the tool.
 */
import { randomBytes } from 'node:crypto';
import { suspendInbox } from '../../actors/inbox.js';
import type { TestService } from './service.js';

export interface ExampleContext {
  svc: TestService;
  spaceId: string;
  /** A key holding all four permissions. */
  apiKey: string;
}

export type Example = (ctx: ExampleContext) => Promise<Record<string, unknown>>;

/** Examples may run twice in a space (MCP, then HTTP): names that must be unique get a random tail. */
const unique = (prefix: string): string => `${prefix}-${randomBytes(4).toString('hex')}`;

async function succeed(svc: TestService, apiKey: string, tool: string, body: Record<string, unknown>) {
  const res = await svc.call(apiKey, tool, body);
  if (res.status !== 200) throw new Error(`${tool} failed: ${JSON.stringify(res.body)}`);
  return res.body;
}

const newInbox = async ({ svc, apiKey }: ExampleContext): Promise<string> =>
  (await succeed(svc, apiKey, 'create_inbox', { username: unique('exemple'), display_name: 'Exemple' })).id;

/** An inbox of the space, reused when one exists, so the examples fit in a small plan's cap. */
async function someInbox(ctx: ExampleContext, status: 'active' | 'suspended'): Promise<string> {
  const { items } = await succeed(ctx.svc, ctx.apiKey, 'list_inboxes', {});
  const found = (items as { id: string; status: string }[]).find((inbox) => inbox.status === status);
  if (found) return found.id;
  const id = await newInbox(ctx);
  if (status === 'suspended') await suspendInbox(ctx.svc.rt, ctx.spaceId, id, 'exemple de suspension');
  return id;
}

const newDomain = async ({ svc, apiKey }: ExampleContext) =>
  (await succeed(svc, apiKey, 'add_domain', { domain: `${unique('exemple')}.test` })) as { domain: string; records: { type: string; name: string; value: string }[] };

export const EXAMPLES: Record<string, Example> = {
  create_key: async () => ({ name: 'exemple', permissions: ['read'], daily_cap: 10 }),
  list_keys: async () => ({}),
  revoke_key: async ({ svc, apiKey }) => ({ key_id: (await svc.key(apiKey, { name: 'à révoquer' })).keyId, confirm: true }),
  get_settings: async () => ({}),
  list_events: async () => ({ limit: 5 }),
  create_inbox: async () => ({ username: unique('exemple'), display_name: 'Agent exemple' }),
  list_inboxes: async () => ({ limit: 5 }),
  inbox_status: async (ctx) => ({ inbox_id: await someInbox(ctx, 'active') }),
  delete_inbox: async (ctx) => ({ inbox_id: await newInbox(ctx), confirm: true }),
  request_inbox_review: async (ctx) => ({ inbox_id: await someInbox(ctx, 'suspended'), message: 'Liste nettoyée.' }),
  add_domain: async () => ({ domain: `${unique('exemple')}.test` }),
  // The service's test DNS server answers for the domain once its records are published there.
  verify_domain: async (ctx) => {
    const { domains } = await succeed(ctx.svc, ctx.apiKey, 'list_domains', {});
    const domain = (domains as Awaited<ReturnType<typeof newDomain>>[])[0] ?? (await newDomain(ctx));
    ctx.svc.dns.publish(domain.records);
    return { domain: domain.domain };
  },
  list_domains: async () => ({}),
  remove_domain: async (ctx) => ({ domain: (await newDomain(ctx)).domain, confirm: true }),
};
