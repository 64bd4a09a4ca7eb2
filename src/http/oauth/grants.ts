/**
 * The grants, by @node-oauth/oauth2-server (framework-agnostic, standards-tested): authorization code
 * with PKCE S256 and refresh-token rotation, over a model backed by our actors (actors/connection.ts,
 * actors/oauth-clients.ts). Ours around it: RFC 8707 (`resource` must be this server's `/mcp`), refresh
 * reuse detection (a used refresh token presented again revokes the connection), the presented refresh
 * token spent only with its successor, after every check (the scope asked included), revocation (RFC 7009),
 * and French error descriptions. The library checks expiry against the wall clock; the model hides
 * what our injected clock says is expired and hands the library dates on the wall clock.
 */
import OAuth2Server from '@node-oauth/oauth2-server';
import {
  CONNECTION_RULES,
  createConnection,
  dropAccessToken,
  endConnection,
  issueTokens,
  newAccessToken,
  newSecret,
  readCode,
  readRefresh,
  spendCode,
  type ConnectionRequest,
} from '../../../actors/connection.js';
import { SERVICE_ACTOR, type Actor } from '../../../actors/journal.js';
import { keepClientInUse } from '../../../actors/oauth-clients.js';
import { MailboxError } from '../../errors.js';
import type { Permission } from '../../record-schemas.js';
import type { Runtime } from '../../runtime.js';
import type { IncomingRequest, Reply } from '../io.js';
import { readForm } from '../pages.js';
import { clientFor } from './clients.js';
import { oauthJson, OAuthRefusal, refusalReply, type OAuthErrorCode } from './refusal.js';

/** The resource every token is for (RFC 8707, RFC 9728 `resource`). */
export const resourceOf = (rt: Runtime): string => `${rt.config.baseUrl}/mcp`;

/**
 * Who a code or token is for. At the consent, `consent` carries the human's choice and the connection to
 * create; at a refresh, `rotates` the refresh token presented, spent when the new pair is saved.
 */
export interface Grantee {
  spaceId: string;
  keyId: string;
  resource: string;
  consent?: { human: Actor; request: ConnectionRequest };
  rotates?: string;
}

const DESCRIPTIONS: Partial<Record<OAuthErrorCode, string>> = {
  invalid_request:
    'Requête incomplète ou mal formée : vérifiez ses paramètres (grant_type, code, code_verifier, redirect_uri, client_id).',
  invalid_client:
    "Client inconnu : enregistrez-le (POST /oauth/register) ou publiez son document de métadonnées à l'adresse de son client_id.",
  invalid_grant:
    "Code ou jeton de rafraîchissement inconnu, expiré, déjà utilisé ou révoqué, ou vérificateur PKCE erroné : recommencez l'autorisation.",
  unauthorized_client: 'Ce client ne peut pas utiliser ce type de demande.',
  unsupported_grant_type: 'Seuls authorization_code et refresh_token sont acceptés.',
  invalid_scope: 'Portée refusée : send, read, approve, manage_inboxes, et jamais plus que ce qui a été accordé.',
  server_error: "Erreur interne du serveur d'autorisation. Réessayez dans un instant.",
};

/** A time of our clock as the library's wall-clock Date. */
const wallDate = (rt: Runtime, at: number): Date => new Date(Date.now() + (at - rt.clock.now()));

function model(rt: Runtime) {
  return {
    async getClient(clientId: string, clientSecret: string | null) {
      // Public clients only: a secret is one we never issued.
      if (clientSecret) return null;
      const client = await clientFor(rt, clientId).catch((error: unknown) => {
        if (error instanceof OAuthRefusal) return null;
        throw error;
      });
      return (
        client && { id: client.client_id, grants: GRANT_TYPES, redirectUris: client.redirect_uris, source: client }
      );
    },
    async validateScope(user: Grantee, _client: OAuth2Server.Client, scope?: string[]) {
      return user.consent ? user.consent.request.permissions : scope?.length ? scope : false;
    },
    async generateAuthorizationCode(_client: OAuth2Server.Client, user: Grantee) {
      return newSecret(user.spaceId, 'mbc');
    },
    async generateAccessToken(_client: OAuth2Server.Client, user: Grantee) {
      return newAccessToken(user.spaceId, user.keyId);
    },
    async generateRefreshToken(_client: OAuth2Server.Client, user: Grantee) {
      return newSecret(user.spaceId, 'mbr');
    },
    async saveAuthorizationCode(
      code: Pick<OAuth2Server.AuthorizationCode, 'authorizationCode' | 'expiresAt' | 'redirectUri' | 'scope'>,
      client: OAuth2Server.Client,
      user: Grantee,
    ) {
      const { keyId } = await createConnection(
        rt,
        user.spaceId,
        user.consent!.human,
        code.authorizationCode,
        user.consent!.request,
      );
      return { ...code, client, user: { ...user, keyId } };
    },
    async getAuthorizationCode(code: string) {
      const grant = await readCode(rt, code);
      if (!grant) return null;
      const user: Grantee = { spaceId: grant.spaceId, keyId: grant.key_id, resource: grant.resource };
      return {
        authorizationCode: code,
        expiresAt: wallDate(rt, grant.expires_at),
        redirectUri: grant.redirect_uri,
        scope: grant.scope,
        client: { id: grant.client_id, grants: [] },
        user,
        codeChallenge: grant.code_challenge,
        codeChallengeMethod: 'S256',
      };
    },
    async revokeAuthorizationCode(code: OAuth2Server.AuthorizationCode) {
      return spendCode(rt, code.authorizationCode);
    },
    async saveToken(
      token: OAuth2Server.Token,
      client: OAuth2Server.Client & { source?: Parameters<typeof keepClientInUse>[1] },
      user: Grantee,
    ) {
      const grant = {
        key_id: user.keyId,
        client_id: client.id,
        scope: (token.scope ?? []) as Permission[],
        resource: user.resource,
      };
      const issued = await issueTokens(
        rt,
        user.spaceId,
        token.accessToken,
        token.refreshToken!,
        grant,
        user.rotates ?? null,
      ).catch((error: unknown) => {
        if (error instanceof MailboxError && error.code === 'unauthorized')
          throw new OAuth2Server.InvalidGrantError('connection revoked');
        throw error;
      });
      if (user.rotates && !issued.rotated) {
        // Two rotations of one token at once: the loser is a reuse too.
        if (issued.reused) await endConnection(rt, user.spaceId, user.keyId, () => SERVICE_ACTOR);
        throw new OAuth2Server.InvalidGrantError('refresh token already used');
      }
      if (client.source) await keepClientInUse(rt, client.source);
      const now = rt.clock.now();
      return {
        ...token,
        accessTokenExpiresAt: wallDate(rt, now + CONNECTION_RULES.accessTokenMs),
        refreshTokenExpiresAt: wallDate(rt, now + CONNECTION_RULES.refreshTokenMs),
        client,
        user,
      };
    },
    async getRefreshToken(refreshToken: string) {
      const stored = await readRefresh(rt, refreshToken);
      if (!stored) return null;
      if (stored.used) {
        await endConnection(rt, stored.spaceId, stored.key_id, () => SERVICE_ACTOR);
        rt.log.warn('refresh token reused: connection revoked', { space_id: stored.spaceId, key_id: stored.key_id });
        return null;
      }
      const user: Grantee = {
        spaceId: stored.spaceId,
        keyId: stored.key_id,
        resource: stored.resource,
        rotates: refreshToken,
      };
      return {
        refreshToken,
        refreshTokenExpiresAt: wallDate(rt, stored.expires_at),
        scope: stored.scope,
        client: { id: stored.client_id, grants: [] },
        user,
      };
    },
    /**
     * The library revokes the presented token before it checks the scope asked: spent here, a refused
     * refresh would cost the client its token. It is spent by saveToken instead, with the new pair.
     */
    async revokeToken() {
      return true;
    },
  };
}

export function oauthServer(rt: Runtime): OAuth2Server {
  return new OAuth2Server({
    model: model(rt) as unknown as OAuth2Server.AuthorizationCodeModel & OAuth2Server.RefreshTokenModel,
    allowEmptyState: true,
    authorizationCodeLifetime: CONNECTION_RULES.codeMs / 1000,
    accessTokenLifetime: CONNECTION_RULES.accessTokenMs / 1000,
    refreshTokenLifetime: CONNECTION_RULES.refreshTokenMs / 1000,
    requireClientAuthentication: { authorization_code: false, refresh_token: false },
    alwaysIssueNewRefreshToken: true,
  });
}

/** A library refusal as the RFC's JSON, described in French. */
export function libraryRefusal(error: unknown): OAuthRefusal {
  if (error instanceof OAuthRefusal) return error;
  if (!(error instanceof OAuth2Server.OAuthError) || error.name === 'server_error')
    throw (error as { inner?: unknown })?.inner ?? error;
  // RFC 6749 5.2 names a redirect_uri unlike the authorization request's `invalid_grant`; the library says invalid_request.
  const code = (/`redirect_uri` is invalid/.test(error.message) ? 'invalid_grant' : error.name) as OAuthErrorCode;
  return new OAuthRefusal(code, DESCRIPTIONS[code] ?? error.message, error.code);
}

/** RFC 8707: a `resource` other than this server's `/mcp` is no resource of ours. */
export function checkResource(rt: Runtime, resource: string | null | undefined): void {
  if (resource !== null && resource !== undefined && resource !== resourceOf(rt)) {
    throw new OAuthRefusal('invalid_target', `Ce serveur ne délivre de jetons que pour ${resourceOf(rt)}.`);
  }
}

const GRANT_TYPES = ['authorization_code', 'refresh_token'];

/** `POST /oauth/token`: authorization_code (PKCE S256) or refresh_token. */
export async function tokenEndpoint(
  rt: Runtime,
  server: OAuth2Server,
  request: IncomingRequest,
  body: Buffer,
): Promise<Reply> {
  const fields = Object.fromEntries(readForm(body));
  try {
    // Before the library, which asks other grants for a client secret first and answers invalid_client.
    if (fields.grant_type && !GRANT_TYPES.includes(fields.grant_type))
      throw new OAuthRefusal('unsupported_grant_type', DESCRIPTIONS.unsupported_grant_type!);
    checkResource(rt, fields.resource);
    const response = new OAuth2Server.Response();
    await server.token(
      new OAuth2Server.Request({ method: request.method, headers: request.headers, query: {}, body: fields }),
      response,
    );
    // The token's life as stored, not the library's count down from the wall clock (3599 a millisecond later).
    return oauthJson(200, { ...response.body, expires_in: CONNECTION_RULES.accessTokenMs / 1000 });
  } catch (error) {
    return refusalReply(libraryRefusal(error));
  }
}

/**
 * `POST /oauth/revoke` (RFC 7009): a refresh token ends its connection ("disconnecting the connector",
 * journaled as the connection); an access token ends itself. Unknown tokens answer 200 all the same.
 */
export async function revokeEndpoint(rt: Runtime, body: Buffer): Promise<Reply> {
  const form = readForm(body);
  const token = form.get('token');
  const clientId = form.get('client_id');
  if (!token || !clientId)
    return refusalReply(new OAuthRefusal('invalid_request', 'Paramètres token et client_id obligatoires.'));
  const refresh = await readRefresh(rt, token);
  if (refresh && refresh.client_id === clientId) {
    await endConnection(rt, refresh.spaceId, refresh.key_id, (name) => ({
      kind: 'agent',
      name,
      key_id: refresh.key_id,
    }));
  } else {
    await dropAccessToken(rt, token);
  }
  return oauthJson(200, {});
}
