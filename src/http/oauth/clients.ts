/**
 * Who the client is: registered by RFC 7591 (`POST /oauth/register`), or described by a Client ID
 * Metadata Document at its https client_id (./client-document.ts). Both give a name and exact redirect
 * URIs; public clients only (`token_endpoint_auth_method: none`, PKCE proves the rest).
 */
import { keepClientDocument, registerClient, storedClient, type OAuthClient } from '../../../actors/oauth-clients.js';
import type { Runtime } from '../../runtime.js';
import { parseJson, type Reply } from '../io.js';
import { fetchClientDocument, isDocumentClientId } from './client-document.js';
import { oauthJson, OAuthRefusal } from './refusal.js';

const MAX_REDIRECT_URIS = 10;
/** All of a client's redirect URIs together: a registration is stored for anyone who asks, so it stays small. */
const MAX_URIS_CHARS = 1024;
const MAX_NAME_CHARS = 60;
/** Schemes a redirect may never use, whatever the client says. */
const FORBIDDEN_SCHEMES = new Set([
  'javascript:',
  'data:',
  'file:',
  'vbscript:',
  'about:',
  'blob:',
  'ftp:',
  'ws:',
  'wss:',
]);
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * A redirect URI a client may register (OAuth 2.1 and RFC 8252): https; http only to loopback (native
 * apps); or a private-use scheme (`cursor://`, `vscode://`...). No fragment.
 */
function redirectUriProblem(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length > MAX_URIS_CHARS)
    return `chaque redirect_uri est une adresse de moins de ${MAX_URIS_CHARS} caractères.`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `« ${raw} » n'est pas une adresse complète.`;
  }
  if (url.hash || raw.includes('#')) return 'une redirect_uri ne porte pas de fragment (#).';
  if (FORBIDDEN_SCHEMES.has(url.protocol)) return `le schéma ${url.protocol} est refusé.`;
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname))
    return 'http:// seulement vers la boucle locale (localhost, 127.0.0.1, [::1]) ; ailleurs https://.';
  return null;
}

const oneLine = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() && !/[\u0000-\u001f\u007f]/.test(value)
    ? value.trim().slice(0, MAX_NAME_CHARS)
    : null;

/** The fields we keep of a client's metadata (RFC 7591 2), checked; the rest is ignored. */
function readClientMetadata(
  raw: unknown,
  refusalFor: 'register' | 'document',
): { client_name: string | null; redirect_uris: string[] } {
  const invalid = (code: 'invalid_redirect_uri' | 'invalid_client_metadata', message: string) =>
    refusalFor === 'register'
      ? new OAuthRefusal(code, message)
      : new OAuthRefusal('invalid_client', `Document de métadonnées du client invalide : ${message}`);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw invalid('invalid_client_metadata', 'les métadonnées sont un objet JSON.');
  const metadata = raw as Record<string, unknown>;
  const uris = metadata.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > MAX_REDIRECT_URIS) {
    throw invalid('invalid_redirect_uri', `redirect_uris : une liste de 1 à ${MAX_REDIRECT_URIS} adresses.`);
  }
  if (
    uris.reduce((chars: number, uri: unknown) => chars + (typeof uri === 'string' ? uri.length : 0), 0) > MAX_URIS_CHARS
  ) {
    throw invalid('invalid_redirect_uri', `redirect_uris : ${MAX_URIS_CHARS} caractères au plus en tout.`);
  }
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw invalid('invalid_redirect_uri', problem);
  }
  const method = metadata.token_endpoint_auth_method;
  if (method !== undefined && method !== 'none') {
    throw invalid(
      'invalid_client_metadata',
      'seuls les clients publics sont acceptés (token_endpoint_auth_method « none », PKCE S256).',
    );
  }
  for (const [field, allowed] of [
    ['grant_types', ['authorization_code', 'refresh_token']],
    ['response_types', ['code']],
  ] as const) {
    const given = metadata[field];
    if (
      given !== undefined &&
      (!Array.isArray(given) || given.some((value) => !(allowed as readonly string[]).includes(value)))
    ) {
      throw invalid('invalid_client_metadata', `${field} : seulement ${allowed.join(', ')}.`);
    }
  }
  return { client_name: oneLine(metadata.client_name), redirect_uris: uris as string[] };
}

/** RFC 7591: the client's metadata in, its client_id out (no secret: a public client). */
export async function registerEndpoint(rt: Runtime, body: Buffer): Promise<Reply> {
  let raw: unknown;
  try {
    raw = parseJson(body);
  } catch {
    throw new OAuthRefusal('invalid_client_metadata', "le corps n'est pas du JSON valide.");
  }
  const metadata = readClientMetadata(raw, 'register');
  const client = await registerClient(rt, {
    client_name: metadata.client_name ?? new URL(metadata.redirect_uris[0]!).host,
    redirect_uris: metadata.redirect_uris,
  });
  return oauthJson(201, {
    client_id: client.client_id,
    client_id_issued_at: client.client_id_issued_at,
    client_name: client.client_name,
    redirect_uris: client.redirect_uris,
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  });
}

/**
 * The client behind a client_id, or null: a registered one, or a metadata document (kept an hour,
 * fetched again after). A document whose `client_id` is not its own URL is refused.
 */
export async function clientFor(rt: Runtime, clientId: string): Promise<OAuthClient | null> {
  const stored = await storedClient(rt, clientId);
  if (stored || !isDocumentClientId(clientId)) return stored;
  const document = await fetchClientDocument(rt.config, clientId);
  const metadata = readClientMetadata(document, 'document');
  if ((document as Record<string, unknown>).client_id !== clientId) {
    throw new OAuthRefusal(
      'invalid_client',
      "Document de métadonnées du client invalide : son client_id n'est pas son adresse.",
    );
  }
  const client: OAuthClient = {
    client_id: clientId,
    client_name: metadata.client_name ?? new URL(clientId).host,
    redirect_uris: metadata.redirect_uris,
    source: 'document',
    client_id_issued_at: Math.floor(rt.clock.now() / 1000),
  };
  await keepClientDocument(rt, client);
  return client;
}
