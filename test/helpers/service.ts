/**
 * The service in-process for a test: a runtime on the file's Redis with an injectable clock, the
 * HTTP + MCP front end on a free loopback port, and helpers to make spaces and call tools for real.
 */
import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import t from 'tap';
import { createSpace, type CreateSpaceOptions } from '../../actors/space.js';
import { ManualClock, systemClock, type Clock } from '../../src/clock.js';
import { loadConfig, type Config } from '../../src/config.js';
import { composeRuntime } from '../../src/cli/compose.js';
import { startHttp } from '../../src/http/server.js';
import { createLogger } from '../../src/log.js';
import { createRedis, type RedisTarget } from '../../src/redis/connect.js';
import { createRuntime, type Runtime } from '../../src/runtime.js';
import { closeQueues } from '../../src/redis/queues.js';
import { closeTransport } from '../../src/delivery/transports.js';
import { startDns, type TestDns } from './dns.js';
import { testRedisTarget } from './redis.js';
import { blobStoreEnv } from './blobs.js';

export interface CallResult {
  status: number;
  body: any;
  headers: Headers;
}

export interface TestService {
  url: string;
  rt: Runtime;
  clock: Clock;
  /** The authoritative DNS server the service's domain checks ask (DNS_SERVERS), unless env names another. */
  dns: TestDns;
  /** POST /v1/<tool> with a bearer key. */
  call(key: string | null, tool: string, body?: unknown): Promise<CallResult>;
  /** A space made as the operator's CLI makes it; verified unless told otherwise. */
  space(options?: Partial<CreateSpaceOptions>): Promise<{ spaceId: string; apiKey: string; keyId: string }>;
  /** A key of the space with these permissions, made through create_key. */
  key(adminKey: string, body: Record<string, unknown>): Promise<{ apiKey: string; keyId: string }>;
  /** The official MCP SDK client over Streamable HTTP, presenting the key. */
  mcp(key: string): Promise<Client>;
  close(): Promise<void>;
}

export interface ServiceOptions {
  clock?: Clock;
  env?: Record<string, string>;
  /** Another Redis than the file's (a throwaway server the test stops and restarts). */
  redis?: RedisTarget;
}

/** `call` of a service at `url`: POST /v1/<tool> with the key as bearer. */
export const toolCaller =
  (url: string): TestService['call'] =>
  async (key, tool, body = {}) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (key) headers.authorization = `Bearer ${key}`;
    const response = await fetch(`${url}/v1/${tool}`, { method: 'POST', headers, body: JSON.stringify(body) });
    return { status: response.status, body: await response.json(), headers: response.headers };
  };

export async function startService(options: ServiceOptions = {}): Promise<TestService> {
  const target = options.redis ?? (await testRedisTarget());
  const dns = await startDns();
  // Its own webhook wake index: files share the cluster, and a webhook worker would deliver any space of its index.
  const webhookIndex = `wh-${randomBytes(4).toString('hex')}`;
  // Its own workspace counters too (the 64 waits of the service): a file's test sees only its own.
  const workspaceIndex = `ws-${randomBytes(4).toString('hex')}`;
  // Its own anonymous budgets and pending registrations too; every test's requests come from 127.0.0.1,
  // so the budgets are wide unless a file sets its own (test/connections/anonymous-*.test.ts).
  const anonymousIndex = `anon-${randomBytes(4).toString('hex')}`;
  const wide = '100000/h,1000000/h';
  // HTTP_ENGINE from the environment: `npm run test:node-engine` runs the HTTP files on node:http.
  const config: Config = loadConfig({
    // SHARED_READ_MS: a loaded machine's slow answer must not pass for a failing node (tests that want one set it).
    LOG_LEVEL: 'error',
    PORT: '0',
    SHARED_READ_MS: '2000',
    DNS_SERVERS: dns.address,
    WEBHOOK_INDEX: webhookIndex,
    WORKSPACE_INDEX: workspaceIndex,
    HTTP_ENGINE: process.env.HTTP_ENGINE ?? '',
    ANONYMOUS_INDEX: anonymousIndex,
    RATE_LIMIT_REGISTER: wide,
    RATE_LIMIT_AUTHORIZE: wide,
    RATE_LIMIT_TOKEN: wide,
    RATE_LIMIT_SIGNIN: wide,
    ...(await blobStoreEnv()),
    ...options.env,
  });
  const clock = options.clock ?? systemClock;
  const rt = composeRuntime(
    createRuntime(config, { clock, redis: createRedis(target), log: createLogger(config.logLevel) }),
  );
  const http = await startHttp(rt, { port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${http.port}`;
  rt.config.baseUrl = url;
  const clients: Client[] = [];

  const service: TestService = {
    url,
    rt,
    clock,
    dns,
    call: toolCaller(url),
    async space(spaceOptions = {}) {
      const created = await createSpace(rt, {
        human: 'humain@exemple.fr',
        verified: true,
        plan: 'starter',
        ...spaceOptions,
      });
      return { spaceId: created.space_id, apiKey: created.api_key, keyId: created.key_id };
    },
    async key(adminKey, body) {
      const res = await service.call(adminKey, 'create_key', body);
      if (res.status !== 200) throw new Error(`create_key failed: ${JSON.stringify(res.body)}`);
      return { apiKey: res.body.api_key, keyId: res.body.key.id };
    },
    async mcp(key) {
      const client = new Client({ name: 'mailbox-tests', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      });
      await client.connect(transport);
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.all(clients.map((c) => c.close()));
      http.close();
      await closeQueues(rt);
      await closeTransport(rt);
      rt.redis.disconnect();
      await dns.close();
      await dropIdleFetchConnections();
    },
  };
  t.teardown(() => service.close());
  return service;
}

/**
 * fetch keeps idle connections open 4 s (undici's keep-alive), which held every test process that long
 * after its last test. Later fetches get a fresh pool: the old one closes once its requests are done.
 */
async function dropIdleFetchConnections(): Promise<void> {
  const slot = Symbol.for('undici.globalDispatcher.1');
  const pool = (globalThis as any)[slot];
  if (!pool) return;
  (globalThis as any)[slot] = new pool.constructor();
  await pool.close();
}

/** A Paris working-day morning, for tests that need a fixed, known time. */
export const mondayMorning = (): ManualClock => new ManualClock(Date.parse('2026-11-23T08:00:00.000Z'));
