/**
 * An MCP client connecting by OAuth as a real assistant does: the official SDK's
 * StreamableHTTPClientTransport with an OAuthClientProvider kept in memory, and the human's part done
 * over real HTTP (the sign-in with the code from the outbox, the consent form submitted as a browser
 * would, its hidden fields included).
 */
import { rmSync } from 'node:fs';
import { createServer } from 'node:https';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import t from 'tap';
import type { TestService } from './service.js';
import { signIn } from './signin.js';
import { makeCertificate } from './webhooks.js';

/** Where the test client says it receives its code: never connected to, the 303's Location is read instead. */
export const TEST_REDIRECT = 'http://127.0.0.1:9/callback';

export class MemoryProvider implements OAuthClientProvider {
  information: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  /** The last authorization URL the SDK sent the human to. */
  authorizationUrl: URL | null = null;

  constructor(
    private readonly name: string,
    readonly clientMetadataUrl?: string,
  ) {}

  get redirectUrl(): string {
    return TEST_REDIRECT;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [TEST_REDIRECT],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    };
  }

  clientInformation() {
    return this.information;
  }

  saveClientInformation(information: OAuthClientInformationMixed) {
    this.information = information;
  }

  tokens() {
    return this.saved;
  }

  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }

  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }

  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }

  codeVerifier() {
    return this.verifier;
  }
}

const unescapeHtml = (text: string): string =>
  text.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name]!,
  );

/** The hidden fields of the page's form, as a browser would submit them. */
export function hiddenFieldsOf(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    fields[unescapeHtml(match[1]!)] = unescapeHtml(match[2]!);
  return fields;
}

export interface ConsentOutcome {
  status: number;
  location: string | null;
  text: string;
}

/**
 * The human's part: opens the authorization URL (signed out: the sign-in page comes first and leads
 * back), reads the consent form, and submits `choice` (`decision`, `permission`, `inbox` fields).
 */
export async function consent(
  svc: TestService,
  authorizationUrl: URL,
  human: { email: string; cookie?: string },
  choice: [string, string][],
): Promise<ConsentOutcome & { cookie: string }> {
  let cookie = human.cookie;
  if (!cookie) {
    const first = await fetch(authorizationUrl, { redirect: 'manual' });
    const signInPage = first.headers.get('location');
    if (first.status !== 303 || !signInPage?.startsWith('/signin?next='))
      throw new Error(`expected the sign-in first, got ${first.status} ${signInPage}`);
    cookie = await signIn(svc, human.email);
  }
  const page = await fetch(authorizationUrl, { headers: { cookie }, redirect: 'manual' });
  const html = await page.text();
  if (page.status !== 200) throw new Error(`consent page: ${page.status} ${html}`);
  const body = new URLSearchParams(hiddenFieldsOf(html));
  for (const [name, value] of choice) body.append(name, value);
  const answer = await fetch(`${svc.url}/oauth/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: body.toString(),
  });
  return { status: answer.status, location: answer.headers.get('location'), text: await answer.text(), cookie };
}

/**
 * An SDK client connected by OAuth from nothing: the 401 and discovery, registration (or the metadata
 * document), consent, the code exchanged for tokens. Returns the connected client, its provider, and
 * the human's session cookie (to allow another client without signing in again).
 */
export async function connectByOAuth(
  svc: TestService,
  email: string,
  options: { name?: string; clientMetadataUrl?: string; permissions?: string[]; cookie?: string } = {},
): Promise<{ client: Client; provider: MemoryProvider; transport: StreamableHTTPClientTransport; cookie: string }> {
  const provider = new MemoryProvider(options.name ?? 'Assistant de test', options.clientMetadataUrl);
  const first = new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { authProvider: provider });
  const client = new Client({ name: 'oauth-tests', version: '1.0.0' });
  await client.connect(first).then(
    () => {
      throw new Error('connected without authorization');
    },
    (error: Error) => {
      if (error.name !== 'UnauthorizedError' && !/Unauthorized/.test(error.message)) throw error;
    },
  );
  const choice: [string, string][] = [
    ['decision', 'allow'],
    ...(options.permissions ?? ['send', 'read']).map((p): [string, string] => ['permission', p]),
  ];
  const outcome = await consent(svc, provider.authorizationUrl!, { email, cookie: options.cookie }, choice);
  const code = new URL(outcome.location ?? 'http://x/').searchParams.get('code');
  if (!code) throw new Error(`no code: ${outcome.status} ${outcome.location} ${outcome.text}`);
  await first.finishAuth(code);
  const transport = new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { authProvider: provider });
  const connected = new Client({ name: 'oauth-tests', version: '1.0.0' });
  await connected.connect(transport);
  return { client: connected, provider, transport, cookie: outcome.cookie };
}

/**
 * Where a test publishes a Client ID Metadata Document: https on loopback with a certificate of its
 * own, which the service trusts through the webhook guard's test switches (`env` below).
 */
export async function startDocumentServer(): Promise<{
  url: string;
  env: Record<string, string>;
  serve(body: string): void;
}> {
  const certificate = makeCertificate();
  let body = '{}';
  const server = createServer({ key: certificate.key, cert: certificate.cert }, (_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(body),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.close();
    rmSync(certificate.dir, { recursive: true, force: true });
  });
  return {
    url: `https://localhost:${(server.address() as { port: number }).port}/client.json`,
    env: { WEBHOOK_ALLOW_LOOPBACK: '1', WEBHOOK_CA_FILE: certificate.caFile },
    serve(next) {
      body = next;
    },
  };
}
