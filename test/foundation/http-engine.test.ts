/**
 * The HTTP engines of src/http/uws.ts: HTTP_ENGINE's choice and fallback, and node:http answering the
 * uWS API subset as uWS does (routing, headers, bodies chunk by chunk, aborts, the 413 close, a streamed
 * answer with backpressure), checked on both engines side by side on the wire (uWS where a build loads
 * on this Node).
 */
import { connect, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import t from 'tap';
import { loadConfig } from '../../src/config.js';
import { readRequest, sendStream } from '../../src/http/io.js';
import { nodeEngine } from '../../src/http/node-engine.js';
import { chooseEngine } from '../../src/http/engine.js';
import type { HttpEngine, HttpResponse, TemplatedApp, us_listen_socket } from '../../src/http/uws.js';

const broken = (name: string) => ({
  name,
  load: (): HttpEngine => {
    throw new Error(`${name} is missing\nmore`);
  },
});

t.test('HTTP_ENGINE: auto, uws, node; anything else refused at start', async (t) => {
  t.equal(loadConfig({}).httpEngine, 'auto');
  t.equal(loadConfig({ HTTP_ENGINE: 'node' }).httpEngine, 'node');
  t.throws(() => loadConfig({ HTTP_ENGINE: 'express' }), /HTTP_ENGINE doit être l'une des valeurs auto, uws, node/);
  t.equal(chooseEngine('node').engine.name, 'node:http');
  const auto = chooseEngine('auto');
  if (auto.engine.name === 'node:http') t.match(auto.warning, process.version, 'no uWS here: node:http with a warning');
  else t.equal(auto.warning, null, `${auto.engine.name} loads here`);
});

t.test('no uWS build loads: auto falls back with a warning, uws is a start error naming every failure', async (t) => {
  const sources = [broken('uWebSockets.js'), broken('@trufflesuite/uws-js-unofficial')];
  const fallback = chooseEngine('auto', sources);
  t.equal(fallback.engine, nodeEngine);
  t.match(fallback.warning, `Node ${process.version}`);
  t.match(
    fallback.warning,
    'uWebSockets.js: uWebSockets.js is missing; @trufflesuite/uws-js-unofficial: @trufflesuite/uws-js-unofficial is missing)',
  );
  t.throws(() => chooseEngine('uws', sources), /^HTTP_ENGINE=uws, but no uWebSockets.js build loads on Node v/);
  t.equal(
    chooseEngine('uws', [broken('uWebSockets.js'), { name: 'stand-in', load: () => nodeEngine }]).engine.name,
    'stand-in',
    'the next build is tried',
  );
});

/** What a test app's handler saw, answered as JSON. */
function answer(res: HttpResponse, seen: unknown): void {
  res.onAborted(() => {});
  res.onData((_chunk, last) => {
    if (last)
      res.cork(() =>
        res.writeStatus('200 OK').writeHeader('x-two', 'a').writeHeader('x-two', 'b').end(JSON.stringify(seen)),
      );
  });
}

interface Probe {
  firstChunk: () => void;
  aborted: () => void;
  broke: (error: Error) => void;
}

/** Far more than the sockets buffer: the stream must wait for the client. */
const CHUNK = 256 * 1024;
const CHUNKS = 16;
const chunkOf = (i: number) => Buffer.alloc(CHUNK, 97 + i);

/** `whole`: CHUNKS chunks; `broken`: one chunk then an error; `short`: one chunk fewer than announced; `empty`: none. */
function streamed(kind: string): { size: number; body: Readable } {
  const count = kind === 'whole' || kind === 'short' ? CHUNKS : 1;
  const size = kind === 'empty' ? 0 : CHUNKS * CHUNK;
  return {
    size,
    body: Readable.from(
      (function* () {
        for (let i = 0; i < count - (kind === 'short' ? 1 : 0) && size; i++) yield chunkOf(i);
        if (kind === 'broken') throw new Error('the store broke off');
      })(),
    ),
  };
}

function testApp(engine: HttpEngine, probe: Probe): TemplatedApp {
  const app = engine.App();
  app.get('/v1/openapi.json', (res) => answer(res, { route: 'static' }));
  app.post('/v1/:tool', (res, req) => answer(res, { route: 'tool', tool: req.getParameter(0) }));
  app.get('/u/:token', (res, req) => {
    const headers: string[] = [];
    req.forEach((key, value) => headers.push(`${key}=${value}`));
    answer(res, {
      route: 'page',
      token: req.getParameter(0),
      url: req.getUrl(),
      query: req.getQuery(),
      method: req.getCaseSensitiveMethod(),
      headers,
    });
  });
  // Reads at most 10 bytes, then refuses as io.ts does past MAX_BODY_BYTES.
  app.post('/small', (res) => {
    let size = 0;
    res.onAborted(probe.aborted);
    res.onData((chunk) => {
      if (size > 10) return;
      size += chunk.byteLength;
      if (size > 10) res.cork(() => res.writeStatus('413 Payload Too Large').end('{}', true));
    });
  });
  app.post('/count', (res) => {
    const sizes: number[] = [];
    res.onAborted(probe.aborted);
    res.onData((chunk, last) => {
      if (chunk.byteLength) sizes.push(chunk.byteLength);
      if (sizes.length === 1 && !last) probe.firstChunk();
      if (last) res.cork(() => res.writeStatus('200 OK').end(JSON.stringify(sizes)));
    });
  });
  app.get('/stream/:kind', (res, req) => {
    const request = readRequest(res, req);
    sendStream(
      res,
      request,
      { status: 200, headers: { 'content-type': 'application/octet-stream' }, ...streamed(req.getParameter(0)!) },
      probe.broke,
    );
  });
  app.any('/*', (res, req) => answer(res, { route: 'any', method: req.getCaseSensitiveMethod() }));
  return app;
}

function listen(engine: HttpEngine, app: TemplatedApp): Promise<{ port: number; socket: us_listen_socket }> {
  return new Promise((resolve, reject) =>
    app.listen('127.0.0.1', 0, (socket) =>
      socket ? resolve({ port: engine.us_socket_local_port(socket), socket }) : reject(new Error('listen')),
    ),
  );
}

/** A connection written by hand: what arrives, and whether the server closed it. */
function raw(port: number): { socket: Socket; text: () => string; closed: Promise<void> } {
  const socket = connect(port, '127.0.0.1');
  let text = '';
  socket.on('data', (chunk) => (text += chunk.toString()));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  return { socket, text: () => text, closed };
}

const uwsLoads = (() => {
  try {
    return [chooseEngine('uws').engine];
  } catch {
    return [];
  }
})();

for (const engine of [nodeEngine, ...uwsLoads]) {
  t.test(`${engine.name}: the uWS behaviour the front end relies on`, async (t) => {
    let firstChunk = () => {};
    let aborted = () => {};
    let broke = (_error: Error) => {};
    const probe: Probe = { firstChunk: () => firstChunk(), aborted: () => aborted(), broke: (error) => broke(error) };
    const { port, socket: listening } = await listen(engine, testApp(engine, probe));
    t.teardown(() => engine.us_listen_socket_close(listening));
    const url = `http://127.0.0.1:${port}`;

    t.test('routes: a static segment before a parameter before a wildcard, a method before any', async (t) => {
      t.same(await (await fetch(`${url}/v1/openapi.json`)).json(), { route: 'static' });
      t.same(await (await fetch(`${url}/v1/openapi.json`, { method: 'POST' })).json(), {
        route: 'tool',
        tool: 'openapi.json',
      });
      t.same(await (await fetch(`${url}/v1/send_email`, { method: 'DELETE' })).json(), {
        route: 'any',
        method: 'DELETE',
      });
      t.same(await (await fetch(`${url}/v1/a/b`, { method: 'POST' })).json(), { route: 'any', method: 'POST' });
      const page = await fetch(`${url}/u/a%20b?x=1&y=2`);
      const seen = await page.json();
      t.same([seen.token, seen.url, seen.query, seen.method], ['a%20b', '/u/a%20b', 'x=1&y=2', 'GET'], 'raw, as sent');
      t.equal(page.headers.get('x-two'), 'a, b', 'a header written twice is sent twice');
      t.equal((await (await fetch(`${url}/u/t`)).json()).query, undefined, 'no query');
    });

    t.test('every header as sent, a repeated one repeated, names in lower case', async (t) => {
      const { socket, text, closed } = raw(port);
      socket.write(
        'GET /u/t HTTP/1.1\r\nHost: x\r\nAuthorization: one\r\nauthorization: two\r\nconnection: close\r\n\r\n',
      );
      await closed;
      const seen = JSON.parse(text().slice(text().indexOf('\r\n\r\n') + 4));
      t.same(
        seen.headers.filter((h: string) => h.startsWith('authorization')),
        ['authorization=one', 'authorization=two'],
      );
    });

    t.test('a body arrives chunk by chunk, the last marked', async (t) => {
      const { socket, text, closed } = raw(port);
      const first = new Promise<void>((resolve) => (firstChunk = resolve));
      socket.write('POST /count HTTP/1.1\r\nhost: x\r\nconnection: close\r\ncontent-length: 7\r\n\r\nabc');
      await first;
      socket.write('defg');
      await closed;
      t.same(JSON.parse(text().slice(text().indexOf('\r\n\r\n') + 4)), [3, 4]);
    });

    t.test('a client gone before the answer is an abort', async (t) => {
      const { socket } = raw(port);
      const gone = new Promise<void>((resolve) => (aborted = resolve));
      const first = new Promise<void>((resolve) => (firstChunk = resolve));
      socket.write('POST /count HTTP/1.1\r\nhost: x\r\ncontent-length: 100\r\n\r\nabc');
      await first;
      socket.destroy();
      await gone;
      t.pass('onAborted ran');
    });

    t.test('a refused body: the answer says Connection: close and the connection closes', async (t) => {
      const { socket, text, closed } = raw(port);
      socket.write(`POST /small HTTP/1.1\r\nhost: x\r\ncontent-length: 100000\r\n\r\n${'x'.repeat(50)}`);
      await closed;
      t.match(text(), /^HTTP\/1\.1 413 Payload Too Large\r\n/);
      t.match(text(), /\r\nconnection: close\r\n/i);
      t.match(text(), /\r\ncontent-length: 2\r\n/i);
      t.ok(text().endsWith('\r\n\r\n{}'));
    });

    t.test('a streamed answer: its Content-Length, every byte in order, read by a slow client', async (t) => {
      const answer = await fetch(`${url}/stream/whole`);
      t.equal(answer.headers.get('content-length'), String(CHUNKS * CHUNK));
      const reader = answer.body!.getReader();
      const parts: Uint8Array[] = [];
      for (let part = await reader.read(); !part.done; part = await reader.read()) {
        parts.push(part.value);
        // Slower than the server writes: the server has to wait for the socket.
        if (parts.length % 8 === 0) await new Promise((done) => setTimeout(done, 5));
      }
      t.ok(Buffer.concat(parts).equals(Buffer.concat(Array.from({ length: CHUNKS }, (_, i) => chunkOf(i)))));
      const empty = await fetch(`${url}/stream/empty`);
      t.equal(empty.headers.get('content-length'), '0');
      t.equal((await empty.arrayBuffer()).byteLength, 0);
    });

    for (const kind of ['broken', 'short']) {
      t.test(
        `a streamed answer that ${kind === 'broken' ? 'breaks off' : 'ends short'}: the connection is cut, fewer bytes than announced`,
        async (t) => {
          const reported = new Promise<Error>((resolve) => (broke = resolve));
          const { socket, text, closed } = raw(port);
          socket.write(`GET /stream/${kind} HTTP/1.1\r\nhost: x\r\n\r\n`);
          await closed;
          t.match(
            (await reported).message,
            kind === 'broken' ? 'the store broke off' : `before its ${CHUNKS * CHUNK} bytes`,
          );
          t.match(text(), new RegExp(`\r\ncontent-length: ${CHUNKS * CHUNK}\r\n`, 'i'));
          t.ok(text().length < CHUNKS * CHUNK, 'fewer bytes than announced');
        },
      );
    }
  });
}
