import { OAuthError } from '../oidc/errors.js';

/** What a request presents to authenticate its client, read at the HTTP edge. */
export interface ClientCredentialsInput {
  /** The Authorization header, if any. */
  authorization: string | undefined;
  /** client_id and client_secret from the form body (client_secret_post, none). */
  clientId: string | undefined;
  clientSecret: string | undefined;
}

export interface PresentedCredentials {
  method: 'client_secret_basic' | 'client_secret_post' | 'none';
  clientId: string;
  secret: string | null;
}

/** RFC 6749 §2.3.1: id and secret are form-urlencoded before they go into Basic. */
function formDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    throw new OAuthError('invalid_request', 'The Basic credentials are not properly form-urlencoded.');
  }
}

function parseBasic(authorization: string): { clientId: string; secret: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=._~-]+)\s*$/i.exec(authorization);
  if (!match) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { clientId: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
}

/**
 * Which method the request used. RFC 6749 §2.3: a client MUST NOT use more
 * than one method in a request; a malformed Authorization header is an
 * authentication failure (401 with the Basic challenge).
 */
export function readClientCredentials(input: ClientCredentialsInput): PresentedCredentials {
  if (input.authorization !== undefined) {
    const basic = parseBasic(input.authorization);
    if (!basic) throw new OAuthError('invalid_client', 'The Authorization header is not valid Basic client credentials.');
    if (input.clientSecret !== undefined) throw new OAuthError('invalid_request', 'Use one client authentication method, not several.');
    if (input.clientId !== undefined && input.clientId !== basic.clientId) {
      throw new OAuthError('invalid_request', 'The client_id in the body differs from the authenticated client.');
    }
    return { method: 'client_secret_basic', clientId: basic.clientId, secret: basic.secret };
  }
  if (input.clientId === undefined || input.clientId === '') throw new OAuthError('invalid_client', 'The client is not authenticated.');
  if (input.clientSecret !== undefined) return { method: 'client_secret_post', clientId: input.clientId, secret: input.clientSecret };
  return { method: 'none', clientId: input.clientId, secret: null };
}
