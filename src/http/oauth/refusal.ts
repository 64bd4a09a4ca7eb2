/**
 * The OAuth endpoints' refusals as their RFCs name them (RFC 6749 5.2 and 4.1.2.1, RFC 7591 3.2.2,
 * RFC 8707 `invalid_target`, RFC 7009; `temporarily_unavailable` with 429 past an anonymous budget): a JSON body `{error, error_description}` (French), never
 * the API's error body, which OAuth clients do not read.
 */
import type { Reply } from '../io.js';

export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'access_denied'
  | 'server_error'
  | 'temporarily_unavailable'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata';

export class OAuthRefusal extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

export const oauthJson = (status: number, body: unknown, headers: Record<string, string> = {}): Reply => ({
  status,
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json; charset=utf-8', ...NO_STORE, ...headers },
});

export const refusalReply = (refusal: OAuthRefusal): Reply =>
  oauthJson(refusal.status, { error: refusal.error, error_description: refusal.message });
