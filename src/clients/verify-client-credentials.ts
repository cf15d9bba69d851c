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
 * Client authentication at the token, revocation, introspection and PAR
 * endpoints (RFC 6749 §2.3, OIDC Core §9). A client whose file set
 * token_endpoint_auth_method (pinned) must use exactly that method; a
 * secret client that left it unset accepts client_secret_basic and
 * client_secret_post alike, as relying parties differ in what they send
 * by default. Basic credentials that form-decoding changed are tried as
 * sent too. Every failure is invalid_client; an unknown client and a
 * wrong secret read the same, so that client ids cannot be probed.
 */
export async function verifyClientCredentials(
  credentials: ClientCredentials,
  deps: ClientAuthenticationDeps,
): Promise<ClientRecord | ClientAuthenticationFailure> {
  const decoded = await verifyOnce(credentials, deps);
  if ('error' in decoded && credentials.authMethod !== 'none' && credentials.asSent) {
    const asSent = await verifyOnce({ ...credentials, ...credentials.asSent }, deps);
    return 'error' in asSent ? decoded : asSent;
  }
  return decoded;
}

const wrongCredentials = 'The client is unknown or its credentials are wrong.';
const secretMethods: readonly string[] = ['client_secret_basic', 'client_secret_post'];

function acceptsMethod(client: ClientRecord, method: ClientCredentials['authMethod']): boolean {
  if (client.tokenEndpointAuthMethod === method) return true;
  return (
    !client.tokenEndpointAuthMethodPinned &&
    secretMethods.includes(client.tokenEndpointAuthMethod) &&
    secretMethods.includes(method)
  );
}

async function verifyOnce(
  credentials: ClientCredentials,
  deps: ClientAuthenticationDeps,
): Promise<ClientRecord | ClientAuthenticationFailure> {
  const client = await deps.clients.find(credentials.clientId);
  if (!client) return rejected(credentials, wrongCredentials);
  if (!acceptsMethod(client, credentials.authMethod)) {
    return rejected(credentials, `The client must authenticate with ${client.tokenEndpointAuthMethod}.`);
  }
  if (credentials.authMethod === 'none') return client;
  if (!client.secretHash || !(await deps.secrets.verify(client.secretHash, credentials.clientSecret))) {
    return rejected(credentials, wrongCredentials);
  }
  return client;
}
