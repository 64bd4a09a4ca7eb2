/**
 * One successful call per registered tool, for the test that calls every tool through the official
 * MCP SDK client (whose outputSchema validation must pass). A tool without an example fails that test:
 * add one here with the tool.
 */
import type { TestService } from './service.js';

export interface ExampleContext {
  svc: TestService;
  spaceId: string;
  /** A key holding all four permissions. */
  apiKey: string;
}

export type Example = (ctx: ExampleContext) => Promise<Record<string, unknown>>;

export const EXAMPLES: Record<string, Example> = {
  create_key: async () => ({ name: 'exemple', permissions: ['read'], daily_cap: 10 }),
  list_keys: async () => ({}),
  revoke_key: async ({ svc, apiKey }) => ({ key_id: (await svc.key(apiKey, { name: 'à révoquer' })).keyId, confirm: true }),
  get_settings: async () => ({}),
  list_events: async () => ({ limit: 5 }),
};
