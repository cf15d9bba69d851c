import type { ClientRecord } from '../model/index.js';
import type { ClientDirectory } from './client-directory.js';
import type { ClientAuthenticationFailure, ClientCredentials } from './client-credentials.js';
import type { ClientSecretVerifier } from './verify-client-secret.js';

export interface ClientAuthenticationDeps {
  clients: ClientDirectory;
  secrets: ClientSecretVerifier;
}

function rejected(credentials: ClientCredentials, description: string): ClientAuthenticationFailure {
  return { error: 'invalid_client', description, usedBasic: credentials.authMethod === 'client_secret_basic' };
}

/**
 * Client authentication at the token, revocation and introspection
 * endpoints (RFC 6749 §2.3, OIDC Core §9): the client must use exactly the
 * method it is registered with. Every failure is invalid_client; an
 * unknown client and a wrong secret read the same, so that client ids
 * cannot be probed.
 */
export async function verifyClientCredentials(
  credentials: ClientCredentials,
  deps: ClientAuthenticationDeps,
): Promise<ClientRecord | ClientAuthenticationFailure> {
  const client = await deps.clients.find(credentials.clientId);
  if (!client) return rejected(credentials, 'The client is unknown or its credentials are wrong.');
  if (client.tokenEndpointAuthMethod !== credentials.authMethod) {
    return rejected(credentials, `The client must authenticate with ${client.tokenEndpointAuthMethod}.`);
  }
  if (credentials.authMethod === 'none') return client;
  if (!client.secretHash || !(await deps.secrets.verify(client.secretHash, credentials.clientSecret))) {
    return rejected(credentials, 'The client is unknown or its credentials are wrong.');
  }
  return client;
}
