import { OAuthError } from '../oidc/errors.js';
import type { ClientRecord } from '../model/index.js';
import type { ClientDirectory } from './client-directory.js';
import { readClientCredentials, type ClientCredentialsInput } from './client-credentials-input.js';
import type { ClientSecretVerifier } from './verify-client-secret.js';

export interface ClientAuthenticationDeps {
  clients: ClientDirectory;
  secrets: ClientSecretVerifier;
}

/** The Basic challenge of a failed client_secret_basic (RFC 6749 §5.2). */
export const basicChallenge = 'Basic realm="idp", charset="UTF-8"';

function failure(usedBasic: boolean, description: string): OAuthError {
  const error = new OAuthError('invalid_client', description);
  if (usedBasic) error.headers['www-authenticate'] = basicChallenge;
  return error;
}

/**
 * Client authentication at the token, revocation and introspection
 * endpoints (RFC 6749 §2.3, OIDC Core §9): the client must use exactly the
 * method it is registered with. Every failure is 401 invalid_client, with
 * the Basic challenge when the request tried Basic.
 */
export async function authenticateClient(input: ClientCredentialsInput, deps: ClientAuthenticationDeps): Promise<ClientRecord> {
  const usedBasic = input.authorization !== undefined;
  let presented;
  try {
    presented = readClientCredentials(input);
  } catch (error) {
    if (error instanceof OAuthError && error.error === 'invalid_client') throw failure(usedBasic, error.description);
    throw error;
  }
  const client = await deps.clients.find(presented.clientId);
  if (!client) throw failure(usedBasic, 'The client is unknown or its credentials are wrong.');
  if (client.tokenEndpointAuthMethod !== presented.method) {
    throw failure(usedBasic, `The client must authenticate with ${client.tokenEndpointAuthMethod}.`);
  }
  if (presented.method === 'none') return client;
  if (!client.secretHash || presented.secret === null || !(await deps.secrets.verify(client.secretHash, presented.secret))) {
    throw failure(usedBasic, 'The client is unknown or its credentials are wrong.');
  }
  return client;
}
