/**
 * The webhook workers' HTTP/1.1 client (src/webhooks/client.ts): how it reads answers (framing by
 * length, chunks or the connection's end; interim answers skipped), and, against a real https receiver
 * on loopback, that keep-alive connections are reused and new ones resume the TLS session, and that a
 * failure without an HTTP answer reads one generic reason (its detail is for the operator's log).
 */
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import t from 'tap';
import { devConfig } from '../../src/cli/dev.js';
import { loadConfig } from '../../src/config.js';
import { parseWebhookUrl } from '../../src/webhooks/address.js';
import { NO_HTTP_ANSWER, readAnswer, WebhookClient, type PostResult } from '../../src/webhooks/client.js';
import { startDns } from '../helpers/dns.js';
import { startReceiver, type Answer } from '../helpers/webhooks.js';

t.test('answers are read as far as their framing', async (t) => {
  const cases: [string, string, ReturnType<typeof readAnswer>][] = [
    ['head incomplete', 'HTTP/1.1 200 OK\r\ncontent-length: 2\r\n', null],
    [
      'by length, whole',
      'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok',
      { status: 200, complete: true, reusable: true },
    ],
    [
      'by length, partial',
      'HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nok',
      { status: 200, complete: false, reusable: false },
    ],
    [
      'chunks, whole',
      'HTTP/1.1 500 Oops\r\nTransfer-Encoding: chunked\r\n\r\n2;x=y\r\nok\r\n3\r\n!!!\r\n0\r\n\r\n',
      { status: 500, complete: true, reusable: true },
    ],
    [
      'chunks with trailers',
      'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\nok\r\n0\r\nx-t: 1\r\n\r\n',
      { status: 200, complete: true, reusable: true },
    ],
    [
      'chunks, partial',
      'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\nok\r\n',
      { status: 200, complete: false, reusable: false },
    ],
    [
      'interim answers skipped',
      'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nlink: </a>\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n',
      { status: 204, complete: true, reusable: true },
    ],
    ['framed by the end', 'HTTP/1.1 200 OK\r\n\r\nok', { status: 200, complete: false, reusable: false }],
    [
      'connection: close',
      'HTTP/1.1 200 OK\r\nconnection: close\r\ncontent-length: 0\r\n\r\n',
      { status: 200, complete: true, reusable: false },
    ],
    ['HTTP/1.0', 'HTTP/1.0 200 OK\r\ncontent-length: 0\r\n\r\n', { status: 200, complete: true, reusable: false }],
    [
      'HTTP/1.0 keep-alive',
      'HTTP/1.0 200 OK\r\nconnection: keep-alive\r\ncontent-length: 0\r\n\r\n',
      { status: 200, complete: true, reusable: true },
    ],
    [
      'bytes after the answer',
      'HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\nHTTP/1.1',
      { status: 200, complete: true, reusable: false },
    ],
  ];
  for (const [name, text, expected] of cases) t.same(readAnswer(text), expected, name);
  t.throws(() => readAnswer('SSH-2.0-OpenSSH\r\n\r\n'), /HTTP\/1/);
  t.throws(() => readAnswer('HTTP/1.1 200 OK\r\ncontent-length: 2, 2\r\n\r\nok'), /Content-Length/);
  t.throws(() => readAnswer('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n'), /chunk/);
});

t.test('keep-alive connections are reused; new ones resume the TLS session', async (t) => {
  const receiver = await startReceiver();
  const client = new WebhookClient(loadConfig({ WEBHOOK_ALLOW_LOOPBACK: '1', WEBHOOK_CA_FILE: receiver.caFile }));
  t.teardown(() => client.close());
  const url = new URL(`${receiver.origin}/recevoir?x=1`);
  const post = (i: number) =>
    client.post(url, '127.0.0.1', { 'webhook-id': `evt_${i}` }, JSON.stringify({ id: `evt_${i}`, type: 't' }));

  for (let i = 0; i < 20; i++) t.same(await post(i), { ok: true, status: 200, error: null, detail: null });
  t.same(receiver.handshakes, { full: 1, resumed: 0 }, 'one after the other: one connection');
  t.equal(receiver.received[0]!.path, '/recevoir?x=1');
  t.equal(receiver.received[0]!.headers.host, `localhost:${receiver.port}`);

  await Promise.all([20, 21, 22, 23].map(post));
  t.same(receiver.handshakes, { full: 1, resumed: 3 }, 'four at once: three more connections, resumed');

  receiver.answer = () => ({ status: 410 });
  t.same(await post(24), { ok: false, status: 410, error: 'http_410', detail: null });
  t.equal(receiver.handshakes.full + receiver.handshakes.resumed, 4, 'an error status keeps the connection');
});

t.test(
  'a kept-alive connection closed as the request leaves: sent again at once on a new one; a new one is not',
  async (t) => {
    const receiver = await startReceiver();
    const client = new WebhookClient(loadConfig({ WEBHOOK_ALLOW_LOOPBACK: '1', WEBHOOK_CA_FILE: receiver.caFile }));
    t.teardown(() => client.close());
    const url = new URL(`${receiver.origin}/recevoir`);
    const post = (id: string) => client.post(url, '127.0.0.1', { 'webhook-id': id }, JSON.stringify({ id, type: 't' }));
    receiver.answer = (request, nth) => ({ status: 200, drop: request.id !== 'evt_first' && nth === 1 });

    t.same(await post('evt_first'), { ok: true, status: 200, error: null, detail: null });
    t.same(
      await post('evt_raced'),
      { ok: true, status: 200, error: null, detail: null },
      'the pooled connection dropped it; a new one delivered it',
    );
    t.same(
      receiver.received.map((r) => r.id),
      ['evt_first', 'evt_raced', 'evt_raced'],
    );
    t.same(receiver.handshakes, { full: 1, resumed: 1 });

    client.close();
    t.same(
      await post('evt_fresh'),
      { ok: false, status: null, error: NO_HTTP_ANSWER, detail: 'connexion impossible (fermée avant la réponse)' },
      'on a new connection it is a failure: the retry schedule takes it',
    );
    t.equal(receiver.received.filter((r) => r.id === 'evt_fresh').length, 1);
  },
);

t.test('the certificate is checked against the URL host, not the address connected to', async (t) => {
  const receiver = await startReceiver();
  const client = new WebhookClient(loadConfig({ WEBHOOK_ALLOW_LOOPBACK: '1', WEBHOOK_CA_FILE: receiver.caFile }));
  t.teardown(() => client.close());
  const result = await client.post(new URL(`https://autre.test:${receiver.port}/`), '127.0.0.1', {}, '{}');
  t.same(result, {
    ok: false,
    status: null,
    error: NO_HTTP_ANSWER,
    detail: 'certificat refusé (ERR_TLS_CERT_ALTNAME_INVALID)',
  });
  t.equal(receiver.received.length, 0);
});

t.test(
  'a failure without an HTTP answer reads one generic reason; only the detail tells refused, timeout, TLS, DNS or not HTTP',
  async (t) => {
    const receiver = await startReceiver();
    const dns = await startDns();
    t.teardown(() => dns.close());
    const client = new WebhookClient(
      loadConfig({
        WEBHOOK_ALLOW_LOOPBACK: '1',
        WEBHOOK_CA_FILE: receiver.caFile,
        WEBHOOK_TIMEOUT_MS: '300',
        DNS_SERVERS: dns.address,
      }),
    );
    t.teardown(() => client.close());
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    const post = (origin: string, answer: Answer) => {
      receiver.answer = () => answer;
      return client.post(new URL(`${origin}/`), '127.0.0.1', {}, '{}');
    };
    const target = async (url: string) => {
      const found = await client.target(new URL(url));
      return 'failure' in found ? found.failure : null;
    };
    dns.a('interne.test', '10.0.0.9');
    const failures: [string, PostResult | null, RegExp][] = [
      ['refused', await post(`https://localhost:${closedPort}`, { status: 200 }), /ECONNREFUSED/],
      ['timeout', await post(receiver.origin, { status: 200, delayMs: 1000 }), /0\.3 s/],
      ['TLS', await post(`https://autre.test:${receiver.port}`, { status: 200 }), /certificat/],
      ['not HTTP', await post(receiver.origin, { status: 200, raw: 'SSH-2.0-OpenSSH_9.2\r\n\r\n' }), /illisible/],
      ['address refused at delivery', await target('https://interne.test/'), /10\.0\.0\.9/],
      ['unknown name', await target('https://inconnu.test/'), /aucune adresse/],
    ];
    dns.servfail = true;
    failures.push(['DNS failure', await target('https://panne.test/'), /DNS/]);
    for (const [name, result, detail] of failures)
      t.match(result, { ok: false, status: null, error: NO_HTTP_ANSWER, detail }, name);
    t.same(
      await post(receiver.origin, { status: 502 }),
      { ok: false, status: 502, error: 'http_502', detail: null },
      'an HTTP status is named',
    );
  },
);

t.test('plain http:// goes to localhost in the development mode only (serve --dev)', async (t) => {
  const received: string[] = [];
  const server = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push(`${req.url} ${body}`);
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  const local = `http://localhost:${(server.address() as { port: number }).port}/recevoir`;
  t.throws(
    () => parseWebhookUrl(loadConfig({ WEBHOOK_ALLOW_LOOPBACK: '1' }), local),
    /https:\/\//,
    'not outside the dev mode',
  );
  const dev = devConfig(loadConfig({}), '127.0.0.1:53');
  t.throws(() => parseWebhookUrl(dev, 'http://exemple.fr/recevoir'), /https:\/\//, 'nor to another host');
  t.throws(() => parseWebhookUrl(dev, 'http://10.0.0.9/recevoir'), /https:\/\//);

  const client = new WebhookClient(dev);
  t.teardown(() => client.close());
  const url = parseWebhookUrl(dev, local);
  const found = await client.target(url);
  t.same(found, { address: '127.0.0.1' });
  t.same(await client.post(url, '127.0.0.1', {}, '{"id":"evt_1"}'), {
    ok: true,
    status: 200,
    error: null,
    detail: null,
  });
  t.same(received, ['/recevoir {"id":"evt_1"}']);
});
