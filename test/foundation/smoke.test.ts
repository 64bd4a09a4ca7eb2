import t from 'tap';
import { startService } from '../helpers/service.js';

t.test('http and mcp give the same create_key object', async (t) => {
  const svc = await startService();
  const { apiKey } = await svc.space();
  const http = await svc.call(apiKey, 'create_key', { name: 'robot-http' });
  t.equal(http.status, 200, JSON.stringify(http.body));
  const client = await svc.mcp(apiKey);
  const tools = await client.listTools();
  t.ok(tools.tools.length >= 5);
  const res = await client.callTool({ name: 'create_key', arguments: { name: 'robot-mcp' } });
  t.notOk(res.isError, JSON.stringify(res));
  t.same(Object.keys(res.structuredContent as object).sort(), Object.keys(http.body).sort());
  const bad = await client.callTool({ name: 'create_key', arguments: { name: 'robot-mcp' } });
  t.ok(bad.isError);
  console.log(JSON.stringify(bad.content));
});
