import {
  verifyClientCredentials,
  type ClientAuthenticationDeps,
  type ClientAuthenticationFailure,
  type PresentedCredentials,
} from '../clients/index.js';
import type { ClientRecord } from '../model/index.js';
import { OAuthError } from './errors.js';

/** The challenge of a failed client_secret_basic (RFC 6749 §5.2; RFC 7617 §2.1 charset). */
const basicChallenge = 'Basic realm="idp", charset="UTF-8"';

function errorOf(failure: ClientAuthenticationFailure): OAuthError {
  const error = new OAuthError(failure.error, failure.description);
  // RFC 6749 §5.2: a 401 to a client that tried Basic MUST carry the challenge.
  if (failure.error === 'invalid_client' && failure.usedBasic) error.headers['www-authenticate'] = basicChallenge;
  return error;
}

/**
 * The first step of the token, revocation and introspection endpoints:
 * the credentials read at the edge become the authenticated client, or an
 * OAuthError — invalid_client (401) when authentication failed,
 * invalid_request when the request was malformed (RFC 6749 §2.3, §5.2).
 */
export async function authenticateClient(
  presented: PresentedCredentials,
  deps: ClientAuthenticationDeps,
): Promise<ClientRecord> {
  const outcome = 'error' in presented ? presented : await verifyClientCredentials(presented, deps);
  if ('error' in outcome) throw errorOf(outcome);
  return outcome;
}
