/**
 * JSON-RPC batches on `/mcp` (MCP 2025-03-26; the SDK's transport still takes them): every message of
 * a batch spends one request of the key's budget, taken before any runs, so batching never gets more
 * calls through than single requests do. Sent by the official SDK's StreamableHTTPClientTransport,
 * whose `send` takes a batch.
 */
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import t from 'tap';
import { ManualClock } from '../../src/clock.js';
import { startService, type TestService } from '../helpers/service.js';

const clock = new ManualClock(Date.parse('2026-11-23T08:00:00.000Z'));
// The default burst of 600, refilled slowly: a bucket expires by Redis's own clock once full again, and
// the test's clock stands still while the machine may be slow.
const svc = await startService({ clock, env: { RATE_LIMIT_BURST: '600', RATE_LIMIT_PER_SECOND: '1' } });

/** A transport of the SDK presenting the key, with the answers it receives. */
async function transportOf(service: TestService, key: string) {
  const transport = new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  const answers: JSONRPCMessage[] = [];
  transport.onmessage = (message) => void answers.push(message);
  await transport.start();
  t.teardown(() => transport.close());
  return { transport, answers };
}

let ids = 0;
const batchOf = (size: number): JSONRPCMessage[] =>
  Array.from({ length: size }, () => ({
    jsonrpc: '2.0',
    id: ++ids,
    method: 'tools/call',
    params: { name: 'get_settings', arguments: {} },
  }));

/** Sends a batch; its HTTP status (200, or the refusal's). */
async function sendBatch(transport: StreamableHTTPClientTransport, batch: JSONRPCMessage[]): Promise<number> {
  try {
    await transport.send(batch);
    return 200;
  } catch (error) {
    if (error instanceof StreamableHTTPError && error.code) return error.code;
    throw error;
  }
}

t.test('4,000 calls in batches of 100: each call spends the budget, as over /v1', async (t) => {
  const { apiKey } = await svc.space();
  const { transport, answers } = await transportOf(svc, apiKey);
  const statuses: number[] = [];
  for (let i = 0; i < 40; i++) statuses.push(await sendBatch(transport, batchOf(100)));
  t.same(statuses.slice(0, 6), Array(6).fill(200), 'the burst: six batches of 100');
  t.same(statuses.slice(6), Array(34).fill(429), 'then every batch is refused whole');
  t.equal(answers.length, 600, 'and 600 calls ran, no more');
  t.ok(
    answers.every((answer) => 'result' in answer && !(answer.result as { isError?: boolean }).isError),
    'each answered',
  );
  const single = await svc.call(apiKey, 'get_settings');
  t.equal(single.status, 429, '/v1 sees the budget spent');
  clock.advance(100_000);
  t.equal(await sendBatch(transport, batchOf(100)), 200, '100 s later, 100 more');
  t.equal(await sendBatch(transport, batchOf(1)), 429, 'and not one more');
});

t.test('a batch is refused whole when the budget lacks part of it; the refusal says when it fits', async (t) => {
  const small = await startService({ clock, env: { RATE_LIMIT_BURST: '10', RATE_LIMIT_PER_SECOND: '1' } });
  const { apiKey } = await small.space();
  for (let i = 0; i < 5; i++) t.equal((await small.call(apiKey, 'get_settings')).status, 200);
  const res = await fetch(`${small.url}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${apiKey}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify(batchOf(10)),
  });
  t.equal(res.status, 429);
  t.equal((await res.json()).error.code, 'rate_limited');
  // 4 left once the request itself took one, 5 missing for the batch's other 9: 5 s at one a second.
  t.equal(res.headers.get('retry-after'), '5');
  t.equal(res.headers.get('ratelimit'), '"default";r=0;t=5');
  const statuses: number[] = [];
  for (let i = 0; i < 5; i++) statuses.push((await small.call(apiKey, 'get_settings')).status);
  t.same(statuses, [200, 200, 200, 200, 429], 'what the refused batch asked was not taken');
});

t.test('a batch larger than the burst is refused before any call runs', async (t) => {
  const small = await startService({ clock, env: { RATE_LIMIT_BURST: '10', RATE_LIMIT_PER_SECOND: '1' } });
  const { apiKey } = await small.space();
  const { transport, answers } = await transportOf(small, apiKey);
  t.equal(await sendBatch(transport, batchOf(11)), 400);
  t.equal(answers.length, 0);
  t.equal(await sendBatch(transport, batchOf(9)), 200, 'nine fit: the refused request spent one');
  t.equal(answers.length, 9);
  t.equal(await sendBatch(transport, batchOf(1)), 429);
});
