import type { ClientAuthenticationFailure, PresentedCredentials } from './client-credentials.js';

const malformedBasic: ClientAuthenticationFailure = {
  error: 'invalid_client',
  description: 'The Authorization header is not valid Basic client credentials.',
  usedBasic: true,
};
const severalMethods: ClientAuthenticationFailure = {
  error: 'invalid_request',
  description: 'Use one client authentication method, not several.',
  usedBasic: true,
};
const otherClientId: ClientAuthenticationFailure = {
  error: 'invalid_request',
  description: 'The client_id in the body differs from the authenticated client.',
  usedBasic: true,
};
const noClient: ClientAuthenticationFailure = {
  error: 'invalid_client',
  description: 'The client is not authenticated.',
  usedBasic: false,
};

/**
 * RFC 6749 §2.3.1: id and secret are form-urlencoded before they go into
 * Basic. A value that is not valid form-encoding (a lone `%`) was sent as it
 * is, as many relying parties do: it is taken as written.
 */
function formDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}

/**
 * Which method the request used, from the Authorization header and the
 * client_id / client_secret form parameters. RFC 6749 §2.3: a client MUST
 * NOT use more than one method in a request; a malformed Authorization
 * header is an authentication failure (401 with the Basic challenge).
 */
export function readClientCredentials(
  authorization: string | undefined,
  clientId: string | undefined,
  clientSecret: string | undefined,
): PresentedCredentials {
  if (authorization !== undefined) {
    const match = /^Basic\s+([A-Za-z0-9+/=._~-]+)\s*$/i.exec(authorization);
    if (!match) return malformedBasic;
    const decoded = Buffer.from(match[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return malformedBasic;
    const sentId = decoded.slice(0, colon);
    const sentSecret = decoded.slice(colon + 1);
    const basicId = formDecode(sentId);
    const basicSecret = formDecode(sentSecret);
    if (clientSecret !== undefined) return severalMethods;
    if (clientId !== undefined && clientId !== basicId && clientId !== sentId) return otherClientId;
    const credentials = { authMethod: 'client_secret_basic' as const, clientId: basicId, clientSecret: basicSecret };
    if (basicId === sentId && basicSecret === sentSecret) return credentials;
    return { ...credentials, asSent: { clientId: sentId, clientSecret: sentSecret } };
  }
  if (clientId === undefined || clientId === '') return noClient;
  if (clientSecret !== undefined) return { authMethod: 'client_secret_post', clientId, clientSecret };
  return { authMethod: 'none', clientId, clientSecret: null };
}
