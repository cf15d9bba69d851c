import { OAuthError } from '../errors.js';
import type { WithScopes } from './check-scope.js';

export interface Pkce {
  challenge: string;
  method: 'S256';
}

export interface WithPkce extends WithScopes {
  pkce: Pkce | null;
}

/** RFC 7636 §4.2: a S256 challenge is BASE64URL(SHA-256(verifier)), 43 characters. */
const s256Challenge = /^[A-Za-z0-9_-]{43}$/;

/**
 * RFC 7636 §4.4.1 and RFC 9700 §2.1.1: PKCE is required for public clients
 * and clients with require_pkce; only S256 is accepted (an absent method
 * means plain, §4.3, and plain is refused).
 */
export function checkPkce(state: WithScopes): WithPkce {
  const { client } = state;
  // Only the parameters that were sent are there.
  const params: Readonly<Partial<Record<string, string>>> = state.params;
  const challenge = params.code_challenge;
  if (challenge === undefined) {
    if (params.code_challenge_method !== undefined) {
      throw new OAuthError('invalid_request', 'The code_challenge_method is given without a code_challenge.');
    }
    if (client.tokenEndpointAuthMethod === 'none' || client.requirePkce) {
      throw new OAuthError(
        'invalid_request',
        'PKCE is required: send a code_challenge with code_challenge_method S256.',
      );
    }
    return { ...state, pkce: null };
  }
  if (params.code_challenge_method !== 'S256') {
    throw new OAuthError('invalid_request', 'The code_challenge_method must be S256.');
  }
  if (!s256Challenge.test(challenge))
    throw new OAuthError('invalid_request', 'The code_challenge is not a S256 challenge.');
  return { ...state, pkce: { challenge, method: 'S256' } };
}
