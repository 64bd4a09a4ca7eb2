/**
 * Connections: the official MCP SDK client connects by OAuth from nothing (401, discovery,
 * registration or a Client ID Metadata Document, the consent page over real HTTP, tokens), calls
 * tools, refreshes, and stops at revoke_key.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { journalLines } from '../helpers/events.js';
import { connectByOAuth, startDocumentServer } from '../helpers/oauth.js';
import { mondayMorning, startService } from '../helpers/service.js';
import { makeCertificate } from '../helpers/webhooks.js';

const dataDir = mkdtempSync(join(tmpdir(), 'mbx-oauth-'));
t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));

const documents = await startDocumentServer();
// A second document server, slow, with a certificate of its own: the service trusts both.
const slow = makeCertificate();
t.teardown(() => rmSync(slow.dir, { recursive: true, force: true }));
const trusted = join(slow.dir, 'trusted.pem');
writeFileSync(trusted, readFileSync(documents.env.WEBHOOK_CA_FILE!, 'utf8') + slow.cert);

const clock = mondayMorning();
const svc = await startService({
  clock,
  env: { MAILBOX_DATA_DIR: dataDir, ...documents.env, WEBHOOK_CA_FILE: trusted },
});
const MINUTE = 60_000;
let people = 0;
const person = (): string => `humain${++people}-${Date.now()}@exemple.fr`;

t.test('from nothing to tools/call, a refresh, then revoke_key ends it', async (t) => {
  const email = person();
  const { apiKey, spaceId } = await svc.space({ human: email, name: 'Atelier' });
  const unauthenticated = await fetch(`${svc.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  t.equal(unauthenticated.status, 401);
  t.equal(
    unauthenticated.headers.get('www-authenticate'),
    `Bearer resource_metadata="${svc.url}/.well-known/oauth-protected-resource/mcp"`,
  );

  const { client, provider } = await connectByOAuth(svc, email, { name: 'Claude', permissions: ['send', 'read'] });
  t.match(provider.information?.client_id, /^mcl_/, 'registered by RFC 7591');
  t.match(provider.saved, { token_type: 'Bearer', expires_in: 3600, scope: 'send read' });
  t.match(provider.saved!.access_token, /^mbt_/);
  const { tools } = await client.listTools();
  t.ok(
    tools.some((tool) => tool.name === 'get_settings'),
    'tools/list',
  );
  const settings = await client.callTool({ name: 'get_settings', arguments: {} });
  t.notOk(settings.isError);
  t.match(
    settings.structuredContent,
    { space: { id: spaceId }, key: { name: 'Claude', permissions: ['send', 'read'] } },
    'tools/call as the connection',
  );

  const keys = (await svc.call(apiKey, 'list_keys')).body.keys;
  const connection = keys.find((key: { kind: string }) => key.kind === 'connection');
  t.match(
    connection,
    {
      name: 'Claude',
      client_id: provider.information!.client_id,
      redirect_host: '127.0.0.1:9',
      permissions: ['send', 'read'],
    },
    'list_keys shows it',
  );
  const stored = JSON.stringify(await svc.rt.redis.keys(`${`mbx:{${spaceId}}`}:oauth:*`));
  t.notMatch(stored, provider.saved!.access_token, 'tokens stored hashed');

  const firstAccess = provider.saved!.access_token;
  const firstRefresh = provider.saved!.refresh_token;
  clock.advance(61 * MINUTE);
  const later = await client.callTool({ name: 'get_settings', arguments: {} });
  t.notOk(later.isError, 'the SDK refreshed after the access token expired');
  t.not(provider.saved!.access_token, firstAccess, 'a new access token');
  t.not(provider.saved!.refresh_token, firstRefresh, 'the refresh token rotated');

  const revoked = await svc.call(apiKey, 'revoke_key', { key_id: connection.id, confirm: true });
  t.match(revoked.body, { kind: 'connection', name: 'Claude' });
  await t.rejects(client.callTool({ name: 'get_settings', arguments: {} }), 'the next call fails');
  const lines = await journalLines(svc.rt, spaceId);
  t.ok(
    lines.some(
      (line) => line.kind === 'connection.created' && line.actor.kind === 'human' && line.data.name === 'Claude',
    ),
    'allowed by the human, journaled',
  );
});

t.test('the same with a Client ID Metadata Document served over https', async (t) => {
  const email = person();
  const { apiKey } = await svc.space({ human: email });
  documents.serve(
    JSON.stringify({
      client_id: documents.url,
      client_name: 'Assistant publié',
      redirect_uris: ['http://127.0.0.1:9/callback'],
      token_endpoint_auth_method: 'none',
    }),
  );
  const { client, provider } = await connectByOAuth(svc, email, {
    clientMetadataUrl: documents.url,
    permissions: ['read'],
  });
  t.equal(provider.information?.client_id, documents.url, 'the document URL is the client_id: no registration');
  const settings = await client.callTool({ name: 'get_settings', arguments: {} });
  t.match(settings.structuredContent, { key: { name: 'Assistant publié', permissions: ['read'] } });
  const keys = (await svc.call(apiKey, 'list_keys')).body.keys;
  t.match(
    keys.find((key: { kind: string }) => key.kind === 'connection'),
    { client_id: documents.url, redirect_host: '127.0.0.1:9' },
  );
});

t.test('a metadata document trickled a byte at a time is given up after 5 s in all', async (t) => {
  // The answer starts at once, then a byte a second: the socket is never idle for long, the document never done.
  const sockets = new Set<Socket>();
  const trickle = createHttpsServer({ key: slow.key, cert: slow.cert }, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{');
    const timer = setInterval(() => res.write(' '), 1000);
    res.on('close', () => clearInterval(timer));
  });
  trickle.on('connection', (socket: Socket) => sockets.add(socket));
  await new Promise<void>((resolve) => trickle.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    for (const socket of sockets) socket.destroy();
    trickle.close();
  });
  const clientId = `https://localhost:${(trickle.address() as AddressInfo).port}/client.json`;
  const url = new URL(`${svc.url}/oauth/authorize`);
  for (const [name, value] of Object.entries({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: 'http://127.0.0.1:9/callback',
    code_challenge: 'a'.repeat(43),
    code_challenge_method: 'S256',
  })) {
    url.searchParams.set(name, value);
  }
  const started = Date.now();
  const page = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(15_000) });
  const took = Date.now() - started;
  t.equal(page.status, 400, 'the error page, never a redirect');
  t.match(await page.text(), 'pas de réponse en 5 s');
  t.ok(took < 6500, `answered within the 5 s limit (${took} ms)`);
});

t.test('a second allowance of one client gets a unique name; actions are journaled with it', async (t) => {
  const email = person();
  const { spaceId } = await svc.space({ human: email });
  const { cookie } = await connectByOAuth(svc, email, { name: 'Cursor' });
  const { client } = await connectByOAuth(svc, email, {
    name: 'Cursor',
    permissions: ['manage_inboxes', 'read'],
    cookie,
  });
  const created = await client.callTool({
    name: 'create_inbox',
    arguments: { username: `c-${spaceId.slice(-8)}`, display_name: 'Cursor' },
  });
  t.notOk(created.isError, JSON.stringify(created.content));
  const lines = await journalLines(svc.rt, spaceId);
  t.match(lines.find((line) => line.kind === 'inbox.created')?.actor, { kind: 'agent', name: 'Cursor (2)' });
});
