/**
 * Every refusal of the OAuth flow, over real HTTP: the error page for an unknown client or redirect
 * URI (never a redirect), the RFC codes for the rest, CSRF and framing, token audience, expiry and
 * revocation, registration's checks, and a token of one space never reading another.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { globalKeys, spaceKeys } from '../../src/redis/keys.js';
import { sha256Hex } from '../../src/secrets.js';
import { consent, hiddenFieldsOf, startDocumentServer, TEST_REDIRECT } from '../helpers/oauth.js';
import { mondayMorning, startService } from '../helpers/service.js';
import { postForm, signIn } from '../helpers/signin.js';

const dataDir = mkdtempSync(join(tmpdir(), 'mbx-oauth-refusals-'));
t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
const documents = await startDocumentServer();

const clock = mondayMorning();
const svc = await startService({ clock, env: { MAILBOX_DATA_DIR: dataDir, ...documents.env } });
const MINUTE = 60_000;
const resource = `${svc.url}/mcp`;
let people = 0;

async function register(body: Record<string, unknown>) {
  const res = await fetch(`${svc.url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

function authorizeUrl(params: Record<string, string | undefined>): URL {
  const url = new URL(`${svc.url}/oauth/authorize`);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return url;
}

async function token(fields: Record<string, string>) {
  const res = await fetch(`${svc.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

/** A space, its human signed in, a registered client and a fresh PKCE pair. */
async function setup() {
  const email = `refus${++people}-${Date.now()}@exemple.fr`;
  const space = await svc.space({ human: email });
  const cookie = await signIn(svc, email);
  const client = (await register({ client_name: 'Client de test', redirect_uris: [TEST_REDIRECT] })).body
    .client_id as string;
  const { verifier, challenge } = pkce();
  const params = {
    response_type: 'code',
    client_id: client,
    redirect_uri: TEST_REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'etat-1',
    resource,
  };
  return { ...space, email, cookie, client, verifier, params };
}

/** Allows the client with `send` and `read`; returns the code. */
async function allow(s: Awaited<ReturnType<typeof setup>>, extra: [string, string][] = []): Promise<string> {
  const outcome = await consent(svc, authorizeUrl(s.params), { email: s.email, cookie: s.cookie }, [
    ['decision', 'allow'],
    ['permission', 'send'],
    ['permission', 'read'],
    ...extra,
  ]);
  const location = new URL(outcome.location!);
  return location.searchParams.get('code')!;
}

const exchange = (s: Awaited<ReturnType<typeof setup>>, code: string, overrides: Record<string, string> = {}) =>
  token({
    grant_type: 'authorization_code',
    code,
    code_verifier: s.verifier,
    client_id: s.client,
    redirect_uri: TEST_REDIRECT,
    resource,
    ...overrides,
  });

const mcp = (bearer: string, name = 'get_settings', args: Record<string, unknown> = {}) =>
  fetch(`${svc.url}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${bearer}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });

/** A tool called through /mcp: the refusal's code, or null when it answered. */
async function toolRefusal(bearer: string, name: string, args: Record<string, unknown> = {}): Promise<string | null> {
  const res = await mcp(bearer, name, args);
  if (res.status !== 200) throw new Error(`/mcp answered ${res.status}`);
  const answer = await res.json();
  if (!answer.result.isError) return null;
  return (
    /"code":"([a-z_]+)"/.exec(answer.result.content.map((part: { text?: string }) => part.text ?? '').join(' '))?.[1] ??
    'unknown'
  );
}

t.test('the metadata documents', async (t) => {
  const prm = await (await fetch(`${svc.url}/.well-known/oauth-protected-resource/mcp`)).json();
  t.same(prm.resource, resource);
  t.same(prm.authorization_servers, [svc.url]);
  t.same(await (await fetch(`${svc.url}/.well-known/oauth-protected-resource`)).json(), prm, 'both well-known paths');
  const as = await (await fetch(`${svc.url}/.well-known/oauth-authorization-server`)).json();
  t.match(as, {
    issuer: svc.url,
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    client_id_metadata_document_supported: true,
  });
  const preflight = await fetch(`${svc.url}/oauth/register`, {
    method: 'OPTIONS',
    headers: { origin: 'http://localhost:6274', 'access-control-request-method': 'POST' },
  });
  t.equal(preflight.status, 204, 'browser clients may register (CORS preflight)');
  t.equal(preflight.headers.get('access-control-allow-origin'), '*');
  t.match(preflight.headers.get('access-control-allow-headers'), 'mcp-protocol-version');
  const wrongMethod = await fetch(`${svc.url}/oauth/token`);
  t.equal(wrongMethod.status, 405);
  t.equal(
    (await fetch(`${svc.url}/.well-known/oauth-authorization-server`)).headers.get('access-control-allow-origin'),
    '*',
  );
});

t.test('an unknown client or an unregistered redirect URI is an error page, never a redirect', async (t) => {
  const s = await setup();
  for (const params of [
    { ...s.params, client_id: 'mcl_inconnu' },
    { ...s.params, redirect_uri: 'https://attaquant.example/cb' },
    { ...s.params, client_id: undefined },
  ]) {
    const res = await fetch(authorizeUrl(params), { headers: { cookie: s.cookie }, redirect: 'manual' });
    t.equal(res.status, 400);
    t.equal(res.headers.get('location'), null);
    t.match(await res.text(), 'Autorisation impossible');
  }
  documents.serve(
    JSON.stringify({
      client_id: 'https://ailleurs.example/client.json',
      client_name: 'Menteur',
      redirect_uris: [TEST_REDIRECT],
    }),
  );
  const lying = await fetch(authorizeUrl({ ...s.params, client_id: documents.url }), {
    headers: { cookie: s.cookie },
    redirect: 'manual',
  });
  t.equal(lying.status, 400, 'a metadata document whose client_id is not its URL');
  t.equal(lying.headers.get('location'), null);
  const internal = await fetch(authorizeUrl({ ...s.params, client_id: 'https://10.0.0.1/client.json' }), {
    headers: { cookie: s.cookie },
    redirect: 'manual',
  });
  t.equal(internal.status, 400, 'a metadata document on an internal address is never fetched');
  t.match(await internal.text(), 'adresse interne refusée');
});

t.test('request refusals go back to the client with the RFC codes', async (t) => {
  const s = await setup();
  const cases: [Record<string, string | undefined>, string][] = [
    [{ response_type: 'token' }, 'unsupported_response_type'],
    [{ code_challenge: undefined }, 'invalid_request'],
    [{ code_challenge_method: 'plain' }, 'invalid_request'],
    [{ resource: 'https://ailleurs.example/mcp' }, 'invalid_target'],
  ];
  for (const [change, error] of cases) {
    const res = await fetch(authorizeUrl({ ...s.params, ...change }), {
      headers: { cookie: s.cookie },
      redirect: 'manual',
    });
    const location = new URL(res.headers.get('location')!);
    t.equal(`${location.origin}${location.pathname}`, TEST_REDIRECT);
    t.equal(location.searchParams.get('error'), error, JSON.stringify(change));
    t.equal(location.searchParams.get('state'), 'etat-1');
  }
  const refused = await consent(svc, authorizeUrl(s.params), { email: s.email, cookie: s.cookie }, [
    ['decision', 'refuse'],
  ]);
  t.equal(new URL(refused.location!).searchParams.get('error'), 'access_denied');
  const keys = (await svc.call(s.apiKey, 'list_keys')).body.keys;
  t.notOk(
    keys.some((key: { kind: string }) => key.kind === 'connection'),
    'nothing created',
  );
});

t.test('the consent form resists CSRF and framing; approve is off by default', async (t) => {
  const s = await setup();
  const page = await fetch(authorizeUrl(s.params), { headers: { cookie: s.cookie } });
  t.equal(page.headers.get('x-frame-options'), 'DENY');
  t.match(page.headers.get('content-security-policy'), "frame-ancestors 'none'");
  const html = await page.text();
  t.match(html, 'Client de test');
  t.match(html, '127.0.0.1:9');
  t.match(html, 'value="approve">', 'approve offered');
  t.notMatch(html, 'value="approve" checked', 'approve not ticked');
  const fields = { ...hiddenFieldsOf(html), decision: 'allow', permission: 'read' };
  const forged = await postForm(svc, '/oauth/authorize', { ...fields, csrf: 'faux' }, { cookie: s.cookie });
  t.equal(forged.status, 403, 'a wrong CSRF token');
  const foreign = await postForm(svc, '/oauth/authorize', fields, {
    cookie: s.cookie,
    origin: 'https://attaquant.example',
  });
  t.equal(foreign.status, 403, 'another origin');
  const other = await setup();
  const stolen = await postForm(svc, '/oauth/authorize', fields, { cookie: other.cookie });
  t.equal(stolen.status, 403, "another session's token");
  const none = await postForm(svc, '/oauth/authorize', { ...fields, permission: '' }, { cookie: s.cookie });
  t.equal(none.status, 400, 'at least one permission');
  const signedOut = await postForm(svc, '/oauth/authorize', fields);
  t.equal(signedOut.status, 303);
  t.match(signedOut.location, /^\/signin\?next=/);
});

t.test('codes: reused, expired, wrong verifier, wrong redirect, another resource', async (t) => {
  const s = await setup();
  const code = await allow(s);
  t.match(code, /^mbc_/);
  t.equal((await exchange(s, code, { resource: 'https://ailleurs.example/mcp' })).body.error, 'invalid_target');
  const clientKey = globalKeys.oauthClient(sha256Hex(s.client));
  const pending = globalKeys.pendingClients(svc.rt.config.anonymous.index);
  t.equal(await svc.rt.redis.exists(clientKey), 0, 'an unused registration is pending...');
  t.ok(await svc.rt.redis.hexists(pending, s.client), '...among the pending ones');
  const first = await exchange(s, code);
  t.equal(first.status, 200);
  t.ok((await svc.rt.redis.pttl(clientKey)) > 29 * 24 * 60 * MINUTE, 'a client in use, 30 days');
  t.notOk(await svc.rt.redis.hexists(pending, s.client), 'no longer pending');
  t.equal(first.headers.get('cache-control'), 'no-store');
  const reused = await exchange(s, code);
  t.equal(reused.status, 400);
  t.equal(reused.body.error, 'invalid_grant', 'a code works once');
  t.match(reused.body.error_description, 'recommencez');

  const wrongVerifier = await exchange(s, await allow(s), { code_verifier: pkce().verifier });
  t.equal(wrongVerifier.body.error, 'invalid_grant');
  const wrongRedirect = await exchange(s, await allow(s), { redirect_uri: 'http://127.0.0.1:9/autre' });
  t.equal(wrongRedirect.body.error, 'invalid_grant');
  const late = await allow(s);
  clock.advance(6 * MINUTE);
  t.equal((await exchange(s, late)).body.error, 'invalid_grant', 'expired after 5 minutes');
  t.equal(
    (await token({ grant_type: 'password', client_id: s.client, username: 'x', password: 'y' })).body.error,
    'unsupported_grant_type',
  );
  t.equal((await exchange(s, await allow(s), { client_id: 'mcl_inconnu' })).body.error, 'invalid_client');
  t.equal((await token({ grant_type: 'authorization_code', client_id: s.client })).body.error, 'invalid_request');
});

t.test('tokens: only at /mcp, only for its resource, until expiry or revocation', async (t) => {
  const s = await setup();
  const { access_token: access, refresh_token: refresh } = (await exchange(s, await allow(s))).body;
  t.equal((await mcp(access)).status, 200);
  const api = await svc.call(access, 'get_settings');
  t.equal(api.status, 401, 'the /v1 API takes keys, not tokens issued for /mcp');
  const base = svc.rt.config.baseUrl;
  svc.rt.config.baseUrl = 'https://autre.example';
  const elsewhere = await mcp(access);
  svc.rt.config.baseUrl = base;
  t.equal(elsewhere.status, 401, 'a token for another resource');
  clock.advance(61 * MINUTE);
  const expired = await mcp(access);
  t.equal(expired.status, 401);
  t.equal(
    expired.headers.get('www-authenticate'),
    `Bearer resource_metadata="${svc.url}/.well-known/oauth-protected-resource/mcp", error="invalid_token"`,
  );
  const renewed = await token({ grant_type: 'refresh_token', refresh_token: refresh, client_id: s.client });
  t.equal(renewed.status, 200);
  t.equal(renewed.body.scope, 'send read');
  // RFC 6749 6: a refresh may narrow the scope; the new access token can then do that much only.
  const inbox = await svc.call(s.apiKey, 'create_inbox', {
    username: `n-${s.spaceId.slice(-8)}`,
    display_name: 'Étroit',
  });
  const sending = {
    inbox_id: inbox.body.id ?? inbox.body.inbox?.id,
    to: s.email,
    subject: 'Essai',
    text: 'Bonjour',
    dry_run: true,
  };
  t.not(await toolRefusal(renewed.body.access_token, 'send_email', sending), 'forbidden', 'the full token may send');
  const narrowed = await token({
    grant_type: 'refresh_token',
    refresh_token: renewed.body.refresh_token,
    client_id: s.client,
    scope: 'read',
  });
  t.equal(narrowed.status, 200);
  t.equal(narrowed.body.scope, 'read');
  t.equal(
    await toolRefusal(narrowed.body.access_token, 'send_email', sending),
    'forbidden',
    'a token narrowed to read does not send',
  );
  t.equal(await toolRefusal(narrowed.body.access_token, 'list_inboxes'), null, 'it reads');
  t.equal(
    (
      await token({
        grant_type: 'refresh_token',
        refresh_token: narrowed.body.refresh_token,
        client_id: s.client,
        scope: 'send read approve',
      })
    ).body.error,
    'invalid_scope',
  );
  const revoke = await fetch(`${svc.url}/oauth/revoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: renewed.body.access_token, client_id: s.client }).toString(),
  });
  t.equal(revoke.status, 200);
  t.equal((await mcp(renewed.body.access_token)).status, 401, 'a revoked access token');
});

t.test("a connection's tokens spend one request budget: a refresh brings no fresh one", async (t) => {
  const s = await setup();
  const { access_token: first, refresh_token: refresh } = (await exchange(s, await allow(s))).body;
  const rateLimit = svc.rt.config.rateLimit;
  svc.rt.config.rateLimit = { burst: 3, perSecond: 1 };
  t.teardown(() => {
    svc.rt.config.rateLimit = rateLimit;
  });
  const statuses: number[] = [];
  for (let i = 0; i < 4; i++) statuses.push((await mcp(first)).status);
  t.same(statuses, [200, 200, 200, 429], 'the burst, then the refusal');
  const renewed = await token({ grant_type: 'refresh_token', refresh_token: refresh, client_id: s.client });
  t.equal(renewed.status, 200);
  const next = await mcp(renewed.body.access_token);
  t.equal(next.status, 429, 'the new token spends the same, empty, budget');
  t.equal((await next.json()).error.code, 'rate_limited');
  clock.advance(1000);
  t.equal((await mcp(renewed.body.access_token)).status, 200, 'and it refills for both');
  t.equal((await mcp(first)).status, 429);
});

t.test('a reused refresh token revokes the connection', async (t) => {
  const s = await setup();
  const { refresh_token: refresh } = (await exchange(s, await allow(s))).body;
  const rotated = await token({ grant_type: 'refresh_token', refresh_token: refresh, client_id: s.client });
  t.equal(rotated.status, 200);
  const reuse = await token({ grant_type: 'refresh_token', refresh_token: refresh, client_id: s.client });
  t.equal(reuse.body.error, 'invalid_grant');
  t.equal((await mcp(rotated.body.access_token)).status, 401, 'the connection is gone, and its tokens with it');
  t.equal(
    (await token({ grant_type: 'refresh_token', refresh_token: rotated.body.refresh_token, client_id: s.client })).body
      .error,
    'invalid_grant',
  );
  const keys = (await svc.call(s.apiKey, 'list_keys')).body.keys;
  t.notOk(keys.some((key: { kind: string }) => key.kind === 'connection'));
});

t.test('a refused refresh (a wider scope) leaves the refresh token usable and the connection whole', async (t) => {
  const s = await setup();
  const { refresh_token: refresh } = (await exchange(s, await allow(s))).body;
  const wider = await token({
    grant_type: 'refresh_token',
    refresh_token: refresh,
    client_id: s.client,
    scope: 'send read approve',
  });
  t.equal(wider.status, 400);
  t.equal(wider.body.error, 'invalid_scope');
  const stored = await svc.rt.redis.hget(spaceKeys(s.spaceId).oauthRefresh(sha256Hex(refresh)), 'used');
  t.equal(stored, '0', 'the refused refresh spent nothing');
  const renewed = await token({
    grant_type: 'refresh_token',
    refresh_token: refresh,
    client_id: s.client,
    scope: 'read',
  });
  t.equal(renewed.status, 200, 'the same token, asked rightly, works');
  t.equal(renewed.body.scope, 'read');
  t.equal((await mcp(renewed.body.access_token)).status, 200, 'and the connection lives');
  const keys = (await svc.call(s.apiKey, 'list_keys')).body.keys;
  t.ok(keys.some((key: { kind: string }) => key.kind === 'connection'));
});

t.test(
  'two rotations of one refresh token at once: one pair is issued, and the other ends the connection',
  async (t) => {
    const s = await setup();
    const { refresh_token: refresh } = (await exchange(s, await allow(s))).body;
    const both = await Promise.all(
      [1, 2].map(() => token({ grant_type: 'refresh_token', refresh_token: refresh, client_id: s.client })),
    );
    t.same(both.map((answer) => answer.status).sort(), [200, 400]);
    const winner = both.find((answer) => answer.status === 200)!;
    t.equal(both.find((answer) => answer.status === 400)!.body.error, 'invalid_grant');
    t.equal((await mcp(winner.body.access_token)).status, 401, 'a reuse: the connection is gone');
  },
);

t.test('revoking the refresh token disconnects the connector', async (t) => {
  const s = await setup();
  const { access_token: access, refresh_token: refresh } = (await exchange(s, await allow(s))).body;
  const revoke = await fetch(`${svc.url}/oauth/revoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: refresh, token_type_hint: 'refresh_token', client_id: s.client }).toString(),
  });
  t.equal(revoke.status, 200);
  t.equal((await mcp(access)).status, 401);
  const keys = (await svc.call(s.apiKey, 'list_keys')).body.keys;
  t.notOk(
    keys.some((key: { kind: string }) => key.kind === 'connection'),
    'removed from list_keys',
  );
  const missing = await fetch(`${svc.url}/oauth/revoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'token=x',
  });
  t.equal((await missing.json()).error, 'invalid_request');
});

t.test('registration refusals', async (t) => {
  t.equal(
    (await register({ client_name: 'x', redirect_uris: ['http://attaquant.example/cb'] })).body.error,
    'invalid_redirect_uri',
  );
  t.equal(
    (await register({ client_name: 'x', redirect_uris: ['javascript:alert(1)'] })).body.error,
    'invalid_redirect_uri',
  );
  t.equal(
    (await register({ client_name: 'x', redirect_uris: ['https://a.example/cb#frag'] })).body.error,
    'invalid_redirect_uri',
  );
  t.equal((await register({ client_name: 'x' })).body.error, 'invalid_redirect_uri');
  t.equal(
    (
      await register({
        client_name: 'x',
        redirect_uris: [TEST_REDIRECT],
        token_endpoint_auth_method: 'client_secret_basic',
      })
    ).body.error,
    'invalid_client_metadata',
  );
  t.equal(
    (await register({ redirect_uris: [TEST_REDIRECT], grant_types: ['client_credentials'] })).body.error,
    'invalid_client_metadata',
  );
  const ok = await register({
    client_name: 'Client',
    redirect_uris: ['cursor://oauth/callback', 'https://a.example/cb'],
  });
  t.equal(ok.status, 201);
  const s = await setup();
  const page = await fetch(
    authorizeUrl({ ...s.params, client_id: ok.body.client_id, redirect_uri: 'cursor://oauth/callback' }),
    { headers: { cookie: s.cookie } },
  );
  t.match(await page.text(), '<strong>cursor://oauth</strong>', "an app's own scheme is shown with its scheme");
  t.match(page.headers.get('content-security-policy'), "form-action 'self' cursor:");
  t.match(ok.body, { client_id: /^mcl_/, token_endpoint_auth_method: 'none' });
  t.notOk('client_secret' in ok.body);
});

t.test("a token of one space never reads another's", async (t) => {
  const s = await setup();
  const other = await svc.space();
  const inbox = await svc.call(other.apiKey, 'create_inbox', {
    username: `autre-${other.spaceId.slice(-8)}`,
    display_name: 'Autre',
  });
  const { access_token: access } = (await exchange(s, await allow(s))).body;
  const res = await fetch(`${svc.url}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${access}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'inbox_status', arguments: { inbox_id: inbox.body.id ?? inbox.body.inbox?.id } },
    }),
  });
  const answer = await res.json();
  t.equal(answer.result.isError, true);
  t.match(answer.result.content[1].text, '"code":"not_found"');
});

t.test('a connection restricted to inboxes; an unknown inbox is refused on the page', async (t) => {
  const s = await setup();
  const inbox = await svc.call(s.apiKey, 'create_inbox', { username: `r-${s.spaceId.slice(-8)}`, display_name: 'R' });
  const inboxId = inbox.body.id ?? inbox.body.inbox?.id;
  await allow(s, [['inbox', inboxId]]);
  const keys = (await svc.call(s.apiKey, 'list_keys')).body.keys;
  t.same(keys.find((key: { kind: string }) => key.kind === 'connection').inbox_ids, [inboxId]);
  const page = await fetch(authorizeUrl(s.params), { headers: { cookie: s.cookie } });
  const fields = new URLSearchParams({
    ...hiddenFieldsOf(await page.text()),
    decision: 'allow',
    permission: 'read',
    inbox: 'inb_00000000000000000000',
  });
  const res = await fetch(`${svc.url}/oauth/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: s.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: fields.toString(),
  });
  t.equal(res.status, 404);
  t.equal(res.headers.get('location'), null);
});
