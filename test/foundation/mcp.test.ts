/** The MCP front end through the official SDK client: list, call every tool, errors, auth. */
import t from 'tap';
import { TOOLS } from '../../src/tools/index.js';
import { EXAMPLES } from '../helpers/examples.js';
import { startService } from '../helpers/service.js';

const svc = await startService({ env: { MAILBOX_MASTER_KEY: Buffer.alloc(32, 7).toString('base64') } });

t.test('tools/list gives every registered tool with its input and output schemas', async (t) => {
  const { apiKey } = await svc.space();
  const client = await svc.mcp(apiKey);
  const { tools } = await client.listTools();
  t.same(tools.map((tool) => tool.name).sort(), TOOLS.map((tool) => tool.name).sort());
  for (const tool of tools) {
    const own = TOOLS.find((candidate) => candidate.name === tool.name)!;
    t.same(tool.inputSchema, JSON.parse(JSON.stringify(own.input)), `${tool.name} inputSchema`);
    t.same(tool.outputSchema, JSON.parse(JSON.stringify(own.output)), `${tool.name} outputSchema`);
    t.ok(tool.description && tool.description.length > 20, `${tool.name} described`);
  }
});

/** The tools that can make the service write outside the space (docs/tools.md, "MCP annotations"). */
const OPEN_WORLD = [
  'send_email',
  'reply_to_thread',
  'approve_message',
  'start_campaign',
  'add_contacts',
  'attach_human',
  'close_space',
  'set_webhook',
];

t.test("tools/list annotations tell each tool's effect: read-only, destructive, idempotent, open world", async (t) => {
  const { apiKey } = await svc.space();
  const { tools } = await (await svc.mcp(apiKey)).listTools();
  for (const tool of tools) {
    const own = TOOLS.find((candidate) => candidate.name === tool.name)!;
    const a = tool.annotations!;
    t.equal(a.readOnlyHint, own.effect === 'read-only', `${tool.name} readOnlyHint`);
    t.equal(a.openWorldHint, OPEN_WORLD.includes(tool.name), `${tool.name} openWorldHint`);
    if (own.effect === 'read-only')
      t.match(a, { destructiveHint: false, idempotentHint: true }, `${tool.name}: a read changes nothing`);
    if (own.effect === 'write, irreversible')
      t.equal(a.destructiveHint, true, `${tool.name}: irreversible, so destructive`);
  }
  const hint = (name: string) => tools.find((tool) => tool.name === name)!.annotations!;
  t.match(
    hint('send_email'),
    { destructiveHint: false, idempotentHint: false, openWorldHint: true },
    'a send adds a message; two calls write two',
  );
  t.match(
    hint('close_space'),
    { destructiveHint: true, openWorldHint: true },
    'the code goes out by e-mail; a confirmed closure erases the space',
  );
  t.match(
    hint('update_draft'),
    { destructiveHint: true, idempotentHint: false },
    'a correction replaces the text and makes a new revision',
  );
  t.match(
    hint('add_filter'),
    { destructiveHint: false, idempotentHint: true },
    'the same filter again is answered as it is',
  );
});

t.test('every registered tool answers through the SDK client, whose outputSchema validation passes', async (t) => {
  const { apiKey, spaceId } = await svc.space({ plan: 'pro' });
  const client = await svc.mcp(apiKey);
  await client.listTools();
  for (const tool of TOOLS) {
    const example = EXAMPLES[tool.name];
    t.ok(example, `${tool.name} has an example in test/helpers/examples.ts`);
    if (!example) continue;
    const args = await example({ svc, spaceId, apiKey });
    const res = await client.callTool({ name: tool.name, arguments: args });
    t.notOk(res.isError, `${tool.name}: ${JSON.stringify(res.content)}`);
    t.type((res.content as { text: string }[])[0]!.text, 'string');
  }
});

t.test('create_key over HTTP and MCP returns the same structured object', async (t) => {
  const { apiKey } = await svc.space();
  const client = await svc.mcp(apiKey);
  const http = await svc.call(apiKey, 'create_key', { name: 'par-http', permissions: ['read'], daily_cap: 5 });
  const mcp = await client.callTool({
    name: 'create_key',
    arguments: { name: 'par-mcp', permissions: ['read'], daily_cap: 5 },
  });
  const strip = (body: any) => ({
    ...body,
    api_key: typeof body.api_key,
    key: { ...body.key, id: 0, name: 0, created_at: 0 },
  });
  t.same(strip(mcp.structuredContent), strip(http.body));
  t.match((mcp.content as { text: string }[])[0]!.text, /^Clé créée\.\nClé key_\w+ « par-mcp » : lecture ;/);
});

t.test('a refusal over MCP: isError, the French message, then the error object; no structuredContent', async (t) => {
  const { apiKey } = await svc.space();
  const client = await svc.mcp(apiKey);
  const res = await client.callTool({ name: 'create_key', arguments: { name: 'x', surprise: 1 } });
  t.equal(res.isError, true);
  t.notOk('structuredContent' in res && res.structuredContent);
  const [message, object] = res.content as { text: string }[];
  const body = JSON.parse(object!.text);
  t.equal(body.error.code, 'invalid_argument');
  t.equal(body.error.hint.parameter, 'surprise');
  t.equal(message!.text, body.error.message);
});

t.test(
  'a refusal tells its hint in words when its message does not: a structured-only host reads them first',
  async (t) => {
    const { apiKey } = await svc.space();
    const client = await svc.mcp(apiKey);
    const unknown = 'inb_00000000000000000000';
    const res = await client.callTool({ name: 'create_key', arguments: { name: 'restreinte', inbox_ids: [unknown] } });
    const [message, object] = res.content as { text: string }[];
    const body = JSON.parse(object!.text);
    t.match(body.error, { code: 'not_found', hint: { inbox_id: unknown } });
    t.notMatch(body.error.message, unknown, 'the message alone does not name the inbox');
    t.equal(message!.text, `${body.error.message} Précision : boîte concernée : ${unknown}.`);
  },
);

t.test('/mcp needs a valid key; stateless GET is 405', async (t) => {
  const init = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
  };
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const anonymous = await fetch(`${svc.url}/mcp`, { method: 'POST', headers, body: JSON.stringify(init) });
  t.equal(anonymous.status, 401);
  t.equal((await anonymous.json()).error.code, 'unauthorized');
  const { apiKey } = await svc.space();
  const get = await fetch(`${svc.url}/mcp`, {
    headers: { authorization: `Bearer ${apiKey}`, accept: 'text/event-stream' },
  });
  t.equal(get.status, 405);
  const revoked = await svc.key(apiKey, { name: 'éphémère' });
  const client = await svc.mcp(revoked.apiKey);
  await svc.call(apiKey, 'revoke_key', { key_id: revoked.keyId, confirm: true });
  await t.rejects(client.listTools(), 'a revoked key stops at once over MCP too');
  const del = await fetch(`${svc.url}/mcp`, { method: 'DELETE', headers: { authorization: `Bearer ${apiKey}` } });
  t.equal(del.status, 405);
});

t.test(
  'a malformed tools/call or an unknown tool is -32602 (invalid params) in French; a tool parameter refused stays an isError result',
  async (t) => {
    const { apiKey } = await svc.space();
    const client = await svc.mcp(apiKey);
    for (const args of ['texte', [1], 5]) {
      const error = await client.callTool({ name: 'get_settings', arguments: args as never }).then(
        () => null,
        (e: { code?: number; message: string; data?: any }) => e,
      );
      t.equal(error?.code, -32602, `arguments ${JSON.stringify(args)}`);
      t.match(error?.message, /Paramètre invalide « arguments » : doit être un objet\./);
      t.equal(error?.data?.error?.code, 'invalid_argument');
      t.same(error?.data?.error?.hint, { parameter: 'arguments' });
    }
    const raw = await fetch(`${svc.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${apiKey}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 5 } }),
    });
    const answer = await raw.json();
    t.equal(answer.error.code, -32602, 'a name that is not a text');
    t.same(answer.error.data.error.hint, { parameter: 'name' });
    const unknown = await client.callTool({ name: 'send_pigeon', arguments: {} }).then(
      () => null,
      (e: { code?: number; message: string; data?: any }) => e,
    );
    t.equal(unknown?.code, -32602, 'an unknown tool is a protocol error too (MCP 2025-11-25)');
    t.match(unknown?.message, /send_pigeon/);
    t.equal(unknown?.data?.error?.code, 'not_found');
    const method = await fetch(`${svc.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${apiKey}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'prompts/get', params: { name: 'x' } }),
    });
    const unknownMethod = await method.json();
    t.equal(unknownMethod.error.code, -32601, 'a method the server does not offer');
    t.match(unknownMethod.error.message, /Méthode inconnue : prompts\/get\./);
    const wrongType = await client.callTool({ name: 'create_key', arguments: { name: 7 } });
    t.equal(
      wrongType.isError,
      true,
      'the tool refuses its own parameters as a result the model reads (docs/contract.md, Decision 1)',
    );
    t.same(JSON.parse((wrongType.content as { text: string }[])[1]!.text).error.hint, { parameter: 'name' });
  },
);
