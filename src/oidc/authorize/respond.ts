import { randomUUID } from 'node:crypto';
import { hashOpaqueToken, newOpaqueToken } from '../tokens/index.js';
import type { WithGrant } from './resolve-interaction.js';
import { finish, type Finished } from './run-steps.js';
import type { AuthorizeDeps } from './types.js';

/**
 * Issues a single-use code (32 random bytes, base64url) bound to the client,
 * redirect URI, PKCE challenge, nonce and sign-in, and answers the client
 * with code, state and iss (RFC 6749 §4.1.2, RFC 9207 §2).
 */
export async function respond(state: WithGrant, deps: AuthorizeDeps): Promise<Finished> {
  const now = deps.clock.now();
  const code = newOpaqueToken();
  await deps.saveCode({
    // Stored as its digest only (RFC 6749 §10.5); the token endpoint hashes what it receives the same way.
    codeHash: hashOpaqueToken(code),
    grantId: randomUUID(),
    clientId: state.client.clientId,
    sub: state.session.sub,
    redirectUri: state.target.redirectUri,
    scopes: state.scopes,
    nonce: state.nonce,
    codeChallenge: state.pkce?.challenge ?? null,
    codeChallengeMethod: state.pkce?.method ?? null,
    authTime: state.session.authTime,
    amr: state.session.amr,
    sessionId: state.session.sessionId,
    sid: state.session.sid,
    claims: state.claims,
    expiresAt: now + deps.codeTtlSeconds * 1000,
    consumedAt: null,
    createdAt: now,
  });
  const params: Record<string, string> = { code };
  if (state.target.state !== null) params.state = state.target.state;
  params.iss = deps.issuer;
  return finish({ kind: 'client_response', target: state.target, params });
}
