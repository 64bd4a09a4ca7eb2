/** The HTTP front end: authentication, routing, bodies, error bodies, OpenAPI, health. */
import { connect } from 'node:net';
import t from 'tap';
import { TOOLS } from '../../src/tools/index.js';
import { startService } from '../helpers/service.js';

const svc = await startService({ env: { MAX_BODY_BYTES: '4096' } });
const { apiKey } = await svc.space();

const post = (path: string, body: string | undefined, headers: Record<string, string> = {}) =>
  fetch(`${svc.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, ...headers }, body });

t.test('unauthorized without a key, with a malformed or unknown one', async (t) => {
  for (const key of [
    null,
    'nope',
    `mbx_${'0'.repeat(20)}_${'a'.repeat(32)}`,
    apiKey.slice(0, -1) + (apiKey.endsWith('x') ? 'y' : 'x'),
  ]) {
    const res = await svc.call(key, 'get_settings');
    t.equal(res.status, 401, String(key));
    t.equal(res.body.error.code, 'unauthorized');
    t.equal(res.body.error.hint, null);
    t.match(res.headers.get('www-authenticate'), /^Bearer/);
  }
  const basic = await fetch(`${svc.url}/v1/get_settings`, {
    method: 'POST',
    headers: { authorization: `Basic ${apiKey}` },
  });
  t.equal(basic.status, 401);
});

/** A request written by hand, so that a header can appear twice on the wire (fetch would merge them). */
function rawPost(path: string, headerLines: string[]): Promise<{ status: number; body: any }> {
  const { port } = new URL(svc.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(
        [
          `POST ${path} HTTP/1.1`,
          `host: 127.0.0.1:${port}`,
          'content-length: 0',
          'connection: close',
          ...headerLines,
          '',
          '',
        ].join('\r\n'),
      );
    });
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString()));
    socket.on('error', reject);
    socket.on('end', () =>
      resolve({ status: Number(text.split(' ')[1]), body: JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) }),
    );
  });
}

t.test('two Authorization headers are refused, whichever comes last', async (t) => {
  const other = await svc.space();
  t.equal((await rawPost('/v1/get_settings', [`authorization: Bearer ${apiKey}`])).status, 200, 'one header: fine');
  for (const pair of [
    [apiKey, other.apiKey],
    [apiKey, 'nope'],
    ['nope', apiKey],
    [apiKey, apiKey],
  ]) {
    const res = await rawPost(
      '/v1/get_settings',
      pair.map((key) => `authorization: Bearer ${key}`),
    );
    t.equal(res.status, 401);
    t.equal(res.body.error.code, 'unauthorized');
  }
});

t.test('an unknown tool or route is not_found', async (t) => {
  const res = await svc.call(apiKey, 'send_pigeon');
  t.equal(res.status, 404);
  t.equal(res.body.error.code, 'not_found');
  t.match(res.body.error.message, 'send_pigeon');
  const get = await fetch(`${svc.url}/v1/get_settings`);
  t.equal(get.status, 404);
  t.equal((await get.json()).error.code, 'not_found');
});

t.test('bodies: empty is {}, not JSON or not an object is invalid_argument, too large is 413', async (t) => {
  t.equal((await post('/v1/get_settings', undefined)).status, 200, 'empty body');
  t.equal((await post('/v1/get_settings', '{}', { 'content-type': 'application/json' })).status, 200);
  for (const body of ['{"a":', '[1,2]', '"texte"', 'null', '42']) {
    const res = await post('/v1/get_settings', body, { 'content-type': 'application/json' });
    t.equal(res.status, 400, body);
    const json = await res.json();
    t.equal(json.error.code, 'invalid_argument');
    t.type(json.error.message, 'string');
  }
  const big = await post('/v1/create_key', JSON.stringify({ name: 'x'.repeat(5000) }), {
    'content-type': 'application/json',
  });
  t.equal(big.status, 413);
  const refused = await big.json();
  t.equal(refused.error.code, 'payload_too_large');
  t.same(refused.error.hint, { max_bytes: 4096 });
  t.equal((await post('/v1/get_settings', '{}')).status, 200, 'the front end still answers');
});

t.test('the error body of docs/contract.md, Decision 1', async (t) => {
  const res = await svc.call(apiKey, 'list_events', { limit: 0 });
  t.equal(res.status, 400);
  t.same(Object.keys(res.body), ['error']);
  t.same(Object.keys(res.body.error).sort(), ['code', 'hint', 'message']);
  t.same(res.body.error.hint, { parameter: 'limit' });
  t.match(res.body.error.message, /^Paramètre invalide « limit » : au moins 1\. Corrigez l'appel\.$/);
  t.match(res.headers.get('content-type'), 'application/json');
});

t.test('GET /v1/openapi.json is generated from the registry', async (t) => {
  const res = await fetch(`${svc.url}/v1/openapi.json`);
  t.equal(res.status, 200);
  const doc = await res.json();
  t.equal(doc.openapi, '3.1.0');
  for (const tool of TOOLS) {
    const op = doc.paths[`/v1/${tool.name}`]?.post;
    t.ok(op, `${tool.name} documented`);
    t.same(op.requestBody.content['application/json'].schema, JSON.parse(JSON.stringify(tool.input)));
    t.same(op.responses['200'].content['application/json'].schema, JSON.parse(JSON.stringify(tool.output)));
    t.equal(
      op.parameters?.[0]?.name,
      'idempotency_key' in tool.input.properties ? 'Idempotency-Key' : undefined,
      `${tool.name} Idempotency-Key header`,
    );
  }
});

t.test('GET /healthz answers when Redis answers', async (t) => {
  const res = await fetch(`${svc.url}/healthz`);
  t.equal(res.status, 200);
  t.same(await res.json(), { status: 'ok' });
});

t.test(
  'GET / sends a browser to the workspace and answers a client its JSON; a favicon; every workspace address is the view',
  async (t) => {
    const browser = await fetch(`${svc.url}/`, {
      redirect: 'manual',
      headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
    });
    t.equal(browser.status, 302);
    t.equal(browser.headers.get('location'), '/workspace');
    t.equal(browser.headers.get('vary'), 'Accept');
    for (const accept of [undefined, '*/*', 'application/json']) {
      const client = await fetch(`${svc.url}/`, { headers: accept ? { accept } : {} });
      t.equal(client.status, 200, String(accept));
      t.match(await client.json(), {
        name: 'Mailbox',
        mcp: `${svc.url}/mcp`,
        openapi: `${svc.url}/v1/openapi.json`,
        workspace: `${svc.url}/workspace`,
      });
    }
    const icon = await fetch(`${svc.url}/favicon.ico`);
    t.equal(icon.status, 200);
    t.equal(icon.headers.get('content-type'), 'image/svg+xml');
    t.match(await icon.text(), /^<svg /);
    const view = await (await fetch(`${svc.url}/workspace`)).text();
    for (const path of [
      '/workspace/fils/thr_01m83pph0031148be96h',
      '/workspace/contacts/claire%40exemple.fr',
      '/workspace/valider?x=1',
    ]) {
      const page = await fetch(`${svc.url}${path}`);
      t.equal(page.status, 200, path);
      t.equal(await page.text(), view, `${path}: the same document`);
    }
  },
);

t.test('X-Request-Id: a sane one is echoed, any other replaced by ours, on every answer', async (t) => {
  const given = 'trace-42.Abc_x';
  const echoed = await post('/v1/get_settings', undefined, { 'x-request-id': given });
  t.equal(echoed.headers.get('x-request-id'), given);
  const ids = new Set<string>();
  const headers: Record<string, string>[] = [
    {},
    { 'x-request-id': 'a b' },
    { 'x-request-id': 'x'.repeat(129) },
    { 'x-request-id': 'a/b' },
  ];
  for (const header of headers) {
    const id = (await post('/v1/get_settings', undefined, header)).headers.get('x-request-id') ?? '';
    t.match(id, /^[0-9a-f-]{36}$/, JSON.stringify(header).slice(0, 40));
    ids.add(id);
  }
  t.equal(ids.size, 4, 'a new one each time');
  t.equal(
    (await post('/v1/get_settings', undefined, { 'x-request-id': 'x'.repeat(128) })).headers.get('x-request-id'),
    'x'.repeat(128),
    '128 characters pass',
  );
  for (const res of [await svc.call(null, 'get_settings'), await svc.call(apiKey, 'send_pigeon')])
    t.ok(res.headers.get('x-request-id'), String(res.status));
  t.ok((await fetch(`${svc.url}/healthz`)).headers.get('x-request-id'), 'healthz');
  t.ok((await fetch(`${svc.url}/nulle-part`)).headers.get('x-request-id'), 'an unknown route');
});

t.test('the request log line carries the request id', async (t) => {
  const logged: Record<string, unknown>[] = [];
  const debug = svc.rt.log.debug;
  svc.rt.log.debug = (msg, fields) => void (msg === 'request' && logged.push(fields ?? {}));
  t.teardown(() => void (svc.rt.log.debug = debug));
  await post('/v1/get_settings', undefined, { 'x-request-id': 'journal-1' });
  t.match(logged, [{ request_id: 'journal-1', url: '/v1/get_settings', status: 200 }]);
});
